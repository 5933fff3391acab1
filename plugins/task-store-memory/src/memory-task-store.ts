/** @module TaskStore in process memory: standalone CTS keeps tasks and events only while it runs. */
import type {
  RunPage, RunQuery, RunRecord, RunRetention, StoredTask, TaskEvent, TaskStore,
} from "../../../core/plugin-api/mod.ts";
import { pageRuns, retainedRuns } from "../../../core/plugin-api/mod.ts";

export class MemoryTaskStore implements TaskStore {
  /** Insertion order is creation order, which listTasks keeps. */
  readonly #tasks = new Map<string, StoredTask>();
  readonly #events = new Map<string, TaskEvent[]>();
  /** Per task, oldest first (ids sort by start time). */
  readonly #runs = new Map<string, RunRecord[]>();

  listTasks(): Promise<StoredTask[]> {
    return Promise.resolve([...this.#tasks.values()].map(copy));
  }

  getTask(name: string): Promise<StoredTask | undefined> {
    const task = this.#tasks.get(name);
    return Promise.resolve(task ? copy(task) : undefined);
  }

  putTask(task: StoredTask): Promise<void> {
    this.#tasks.set(task.config.name, copy(task));
    return Promise.resolve();
  }

  deleteTask(name: string): Promise<void> {
    this.#tasks.delete(name);
    this.#events.delete(name);
    this.#runs.delete(name);
    return Promise.resolve();
  }

  listEvents(name: string): Promise<TaskEvent[]> {
    return Promise.resolve((this.#events.get(name) ?? []).map(copy));
  }

  addEvent(event: TaskEvent, limit: number): Promise<void> {
    const kept = [copy(event), ...(this.#events.get(event.task_name) ?? [])];
    this.#events.set(event.task_name, kept.slice(0, Math.max(1, limit)));
    return Promise.resolve();
  }

  reset(): Promise<void> {
    this.#tasks.clear();
    this.#events.clear();
    this.#runs.clear();
    return Promise.resolve();
  }

  putRun(record: RunRecord, retention: RunRetention): Promise<void> {
    const runs = (this.#runs.get(record.task) ?? []).filter((run) => run.id !== record.id);
    runs.push(copy(record));
    runs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.#runs.set(record.task, retainedRuns(runs, retention, Date.now()));
    return Promise.resolve();
  }

  listRuns(task: string, query: RunQuery): Promise<RunPage> {
    return Promise.resolve(copy(pageRuns(this.#runs.get(task) ?? [], query)));
  }

  getRun(task: string, id: string): Promise<RunRecord | undefined> {
    const run = this.#runs.get(task)?.find((candidate) => candidate.id === id);
    return Promise.resolve(run ? copy(run) : undefined);
  }

  pruneRuns(task: string, retention: RunRetention): Promise<void> {
    const runs = this.#runs.get(task);
    if (runs) this.#runs.set(task, retainedRuns(runs, retention, Date.now()));
    return Promise.resolve();
  }
}

/** Callers get their own copies, so mutating a result never changes what is stored. */
function copy<T>(value: T): T {
  return structuredClone(value);
}
