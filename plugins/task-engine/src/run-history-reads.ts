/**
 * @module Reading a task's run history: the store's records (a store without history has none) with
 * the runs still in progress in front, and the outputs of the last successful apply.
 */
import type { RunPage, RunQuery, RunRecord, TaskOutputs, TaskStore } from "../../../core/plugin-api/mod.ts";
import type { RunRecorder } from "./run-recorder.ts";

/** How many of the newest records are searched for the last successful apply. */
const OUTPUT_SEARCH = 20;

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

/** The outputs of the last successful apply; read back from the store once after a restart or failover. */
export async function readOutputs(task: string, store: TaskStore, recorder: RunRecorder): Promise<TaskOutputs | undefined> {
  const known = recorder.outputs;
  if (known) return known.value;
  const page = await readRuns(task, store, { limit: OUTPUT_SEARCH });
  const applied = page.runs.find((run) => run.outcome === "applied" && (run.kind ?? "apply") === "apply");
  const full = applied ? await readRun(task, store, applied.id) : undefined;
  const found = full?.outputs ? { run_id: full.id, outputs: full.outputs } : undefined;
  // An answer from the first page is final: older applies are not "the last successful" one.
  if (applied || !page.next) recorder.noteOutputs(found);
  return found;
}
