/**
 * @module Reading a task's run history: the store's records (a store without history has none) with
 * the runs still in progress in front, and the outputs of the last successful apply.
 */
import type { RunPage, RunQuery, RunRecord, TaskOutputs, TaskStore } from "../../../core/plugin-api/mod.ts";
import type { RunRecorder } from "./run-recorder.ts";

/** The store's page; the first page starts with the runs in progress (not stored until they end). */
export async function readRuns(task: string, store: TaskStore, query: RunQuery, recorder?: RunRecorder): Promise<RunPage> {
  const stored = store.listRuns ? await store.listRuns(task, query) : { runs: [] };
  const current = query.before === undefined && recorder ? recorder.current.filter((run) => !stored.runs.some((s) => s.id === run.id)) : [];
  if (current.length === 0) return stored;
  const runs = [...current, ...stored.runs];
  const total = stored.total === undefined ? undefined : stored.total + current.length;
  const totalPart = total === undefined ? {} : { total };
  if (runs.length <= query.limit) return { runs, ...(stored.next ? { next: stored.next } : {}), ...totalPart };
  const kept = runs.slice(0, query.limit);
  return { runs: kept, next: kept[kept.length - 1]!.id, ...totalPart };
}

/** A run in progress (with its output so far), else the stored record. */
export async function readRun(task: string, store: TaskStore, id: string, recorder?: RunRecorder): Promise<RunRecord | undefined> {
  const live = recorder?.live(id);
  if (live) return live;
  return store.getRun ? await store.getRun(task, id) : undefined;
}

/**
 * The outputs of the last successful apply: known in memory once an apply ended here; else read
 * back once (after a restart or a failover) from that run's record, which the task store names.
 */
export async function readOutputs(task: string, store: TaskStore, recorder: RunRecorder, lastApplied: string | undefined): Promise<TaskOutputs | undefined> {
  const known = recorder.outputs;
  if (known) return known.value;
  const record = lastApplied ? await readRun(task, store, lastApplied) : undefined;
  const found = record?.outputs ? { run_id: record.id, outputs: record.outputs } : undefined;
  recorder.noteOutputs(found);
  return found;
}
