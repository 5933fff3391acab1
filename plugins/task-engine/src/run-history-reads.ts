/** @module Reading a task's run history from the task store (a store without history has none). */
import type { RunPage, RunQuery, RunRecord, TaskStore } from "../../../core/plugin-api/mod.ts";

export async function readRuns(task: string, store: TaskStore, query: RunQuery): Promise<RunPage> {
  return store.listRuns ? await store.listRuns(task, query) : { runs: [] };
}

export async function readRun(task: string, store: TaskStore, id: string): Promise<RunRecord | undefined> {
  return store.getRun ? await store.getRun(task, id) : undefined;
}
