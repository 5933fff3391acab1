/** @module TaskStore in process memory: standalone CTS keeps tasks and events only while it runs. */
import type { StoredTask, TaskEvent, TaskStore } from "../../../core/plugin-api/mod.ts";

export class MemoryTaskStore implements TaskStore {
  /** Insertion order is creation order, which listTasks keeps. */
  readonly #tasks = new Map<string, StoredTask>();
  readonly #events = new Map<string, TaskEvent[]>();

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
    return Promise.resolve();
  }
}

/** Callers get their own copies, so mutating a result never changes what is stored. */
function copy<T>(value: T): T {
  return structuredClone(value);
}
