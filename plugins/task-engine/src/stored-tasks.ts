/**
 * @module What a new leader loads: the stored tasks in run order (config order first, as CTS, then
 * tasks created through the API), seeded from the config when the store is empty or `-reset-storage`
 * was given, and the stored tasks that cannot be decoded. A store that cannot be read (Consul away)
 * is retried with backoff and logged, never given up on in silence.
 */
import { errorMessage, sleep } from "../../../core/plugin-api/mod.ts";
import type { CtsConfig, DamagedRecord, Logger, StoredTask, TaskStore } from "../../../core/plugin-api/mod.ts";

export interface StoredTasks {
  readonly tasks: StoredTask[];
  /** Damaged task records (the store left them out of `tasks`). */
  readonly damaged: DamagedRecord[];
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export async function loadStoredTasks(store: TaskStore, config: CtsConfig, resetStorage: boolean): Promise<StoredTasks> {
  let stored = resetStorage ? [] : await store.listTasks();
  const damaged = resetStorage ? [] : (store.damagedRecords?.() ?? []).filter((record) => record.kind === "task" && record.task !== undefined &&
    !stored.some((task) => task.config.name === record.task));
  // A store holding only damaged tasks is not empty: seeding would overwrite what an operator may repair.
  if (stored.length === 0 && damaged.length === 0) {
    if (resetStorage) await store.reset();
    stored = config.tasks.map((task) => ({ config: task }));
    for (const task of stored) await store.putTask(task);
    return { tasks: stored, damaged };
  }
  const order = new Map(config.tasks.map((task, index) => [task.name, index]));
  const rank = (task: StoredTask) => order.get(task.config.name) ?? Number.MAX_SAFE_INTEGER;
  const tasks = stored.map((task, index) => ({ task, index }))
    .sort((a, b) => rank(a.task) - rank(b.task) || a.index - b.index)
    .map(({ task }) => task);
  return { tasks, damaged };
}

/** Loads until it works, while `current()` (this leadership) lasts; undefined when it ended first. */
export async function loadStoredTasksRetrying(
  load: () => Promise<StoredTasks>, logger: Logger, current: () => boolean, signal: AbortSignal,
): Promise<StoredTasks | undefined> {
  for (let wait = FIRST_RETRY_MS; current() && !signal.aborted; wait = Math.min(wait * 2, MAX_RETRY_MS)) {
    try {
      return await load();
    } catch (error) {
      if (!current() || signal.aborted) return undefined;
      logger.error("cannot load the stored tasks; no task runs until they load; retrying", { error: errorMessage(error), retry_in_ms: wait });
      await sleep(wait, signal);
    }
  }
  return undefined;
}
