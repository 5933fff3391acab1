/**
 * @module TaskStore in Consul KV: tasks and events survive leader changes and full cluster restarts.
 * Every write is a check-and-set on the key's ModifyIndex, retried on conflict.
 */
import { CtsError, type ConsulClient, type Logger, type StoredTask, type TaskEvent, type TaskStore } from "../../../core/plugin-api/mod.ts";
import type { DamagedRecord, RunPage, RunQuery, RunRecord, RunRetention } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";
import { ConsulRunHistory } from "./consul-run-history.ts";
import { DamagedRecords, quietLogger } from "./damaged-records.ts";
import { StoredRecordReader } from "./stored-record-reader.ts";

const CAS_ATTEMPTS = 10;

export class ConsulTaskStore implements TaskStore {
  readonly #consul: ConsulClient;
  readonly #layout: KvLayout;
  readonly #runs: ConsulRunHistory;
  readonly #damaged: DamagedRecords;
  readonly #read: StoredRecordReader;

  /** `damaged` is where damaged records are reported (the plugin shares it with the election); its logger by default logs nothing. */
  constructor(consul: ConsulClient, layout: KvLayout, damaged: DamagedRecords = new DamagedRecords(quietLogger), logger: Logger = quietLogger) {
    this.#consul = consul;
    this.#layout = layout;
    this.#damaged = damaged;
    this.#read = new StoredRecordReader({ consul, layout, damaged, logger });
    this.#runs = new ConsulRunHistory(consul, layout, this.#read);
  }

  /** In creation order (CreateIndex), like the memory store; Consul itself lists keys lexically. A damaged task is left out (reported). */
  async listTasks(): Promise<StoredTask[]> {
    const pairs = await this.#consul.kvList(this.#layout.tasksPrefix);
    return [...pairs].sort((a, b) => a.createIndex - b.createIndex).flatMap((pair) => this.#read.task(pair) ?? []);
  }

  async getTask(name: string): Promise<StoredTask | undefined> {
    const pair = await this.#consul.kvGet(this.#layout.taskKey(name));
    return pair ? this.#read.task(pair) : undefined;
  }

  async putTask(task: StoredTask): Promise<void> {
    const key = this.#layout.taskKey(task.config.name);
    await this.#update(key, "task", task.config.name, () => task);
    this.#damaged.cleared(key);
  }

  async deleteTask(name: string): Promise<void> {
    await this.#consul.kvDelete(this.#layout.taskKey(name));
    this.#damaged.cleared(this.#layout.taskKey(name));
    await this.#consul.kvDelete(this.#layout.eventsKey(name));
    await this.#runs.deleteTask(name);
    // Shared cluster mode: the members learn that the task names changed from a change under
    // owners/ (ownership-watch.ts); a leader-mode cluster has no such key.
    await this.#consul.kvDelete(`${this.#layout.ownersPrefix}${name}`);
  }

  async listEvents(name: string): Promise<TaskEvent[]> {
    return await this.#read.events(await this.#consul.kvGet(this.#layout.eventsKey(name)), name);
  }

  async addEvent(event: TaskEvent, limit: number): Promise<void> {
    await this.#update<TaskEvent[]>(this.#layout.eventsKey(event.task_name), "events", event.task_name, (events = []) =>
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

  damagedRecords(): readonly DamagedRecord[] {
    return this.#damaged.list();
  }

  /** Read-modify-write with CAS; `cas=0` means "only if absent", so creation races are caught too. A damaged value is set aside and replaced. */
  async #update<T>(key: string, kind: "task" | "events", task: string, change: (current: T | undefined) => T): Promise<void> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const pair = await this.#consul.kvGet(key);
      const next = change(await this.#read.current<T>(pair, kind, task));
      if (await this.#consul.kvPut(key, JSON.stringify(next), { cas: pair?.modifyIndex ?? 0 })) return;
    }
    throw new CtsError("CTS_ERR_CONFLICT", `Cannot write ${key}: it kept changing under ${CAS_ATTEMPTS} attempts`);
  }
}
