/**
 * @module TaskStore in Consul KV: tasks and events survive leader changes and full cluster restarts.
 * Every write is a check-and-set on the key's ModifyIndex, retried on conflict.
 */
import { CtsError, type ConsulClient, type StoredTask, type TaskEvent, type TaskStore } from "../../../core/plugin-api/mod.ts";
import type { RunPage, RunQuery, RunRecord, RunRetention } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";
import { ConsulRunHistory } from "./consul-run-history.ts";

const CAS_ATTEMPTS = 10;

export class ConsulTaskStore implements TaskStore {
  readonly #consul: ConsulClient;
  readonly #layout: KvLayout;
  readonly #runs: ConsulRunHistory;

  constructor(consul: ConsulClient, layout: KvLayout) {
    this.#consul = consul;
    this.#layout = layout;
    this.#runs = new ConsulRunHistory(consul, layout);
  }

  /** In creation order (CreateIndex), like the memory store; Consul itself lists keys lexically. */
  async listTasks(): Promise<StoredTask[]> {
    const pairs = await this.#consul.kvList(this.#layout.tasksPrefix);
    return [...pairs].sort((a, b) => a.createIndex - b.createIndex).map((pair) => JSON.parse(pair.value) as StoredTask);
  }

  async getTask(name: string): Promise<StoredTask | undefined> {
    const pair = await this.#consul.kvGet(this.#layout.taskKey(name));
    return pair ? (JSON.parse(pair.value) as StoredTask) : undefined;
  }

  async putTask(task: StoredTask): Promise<void> {
    await this.#update(this.#layout.taskKey(task.config.name), () => task);
  }

  async deleteTask(name: string): Promise<void> {
    await this.#consul.kvDelete(this.#layout.taskKey(name));
    await this.#consul.kvDelete(this.#layout.eventsKey(name));
    await this.#runs.deleteTask(name);
    // Shared cluster mode: the members learn that the task names changed from a change under
    // owners/ (ownership-watch.ts); a leader-mode cluster has no such key.
    await this.#consul.kvDelete(`${this.#layout.ownersPrefix}${name}`);
  }

  async listEvents(name: string): Promise<TaskEvent[]> {
    const pair = await this.#consul.kvGet(this.#layout.eventsKey(name));
    return pair ? (JSON.parse(pair.value) as TaskEvent[]) : [];
  }

  async addEvent(event: TaskEvent, limit: number): Promise<void> {
    await this.#update<TaskEvent[]>(this.#layout.eventsKey(event.task_name), (events = []) =>
      [event, ...events].slice(0, Math.max(1, limit))
    );
  }

  async reset(): Promise<void> {
    await this.#consul.kvDelete(this.#layout.tasksPrefix, { recurse: true });
    await this.#consul.kvDelete(this.#layout.eventsPrefix, { recurse: true });
    await this.#runs.reset();
  }

  putRun(record: RunRecord, retention: RunRetention): Promise<void> {
    return this.#runs.put(record, retention);
  }

  listRuns(task: string, query: RunQuery): Promise<RunPage> {
    return this.#runs.list(task, query);
  }

  getRun(task: string, id: string): Promise<RunRecord | undefined> {
    return this.#runs.get(task, id);
  }

  pruneRuns(task: string, retention: RunRetention): Promise<void> {
    return this.#runs.prune(task, retention);
  }

  /** Read-modify-write with CAS; `cas=0` means "only if absent", so creation races are caught too. */
  async #update<T>(key: string, change: (current: T | undefined) => T): Promise<void> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const pair = await this.#consul.kvGet(key);
      const next = change(pair ? (JSON.parse(pair.value) as T) : undefined);
      if (await this.#consul.kvPut(key, JSON.stringify(next), { cas: pair?.modifyIndex ?? 0 })) return;
    }
    throw new CtsError("CTS_ERR_CONFLICT", `Cannot write ${key}: it kept changing under ${CAS_ATTEMPTS} attempts`);
  }
}
