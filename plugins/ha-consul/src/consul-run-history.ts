/**
 * @module The run history in Consul KV: one small key per record (`<root>/runs/<task>/<id>`), so a
 * write is one PUT that never races another record and no value nears Consul's 512 KiB limit.
 * Retention deletes the oldest keys; the ids are known from a per-task cache (refreshed from KV
 * after a minute, or on a new leader's first write), so a write does not list the history.
 */
import { pageRuns, runIdTime } from "../../../core/plugin-api/mod.ts";
import type { ConsulClient, RunPage, RunQuery, RunRecord, RunRetention } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";
import type { StoredRecordReader } from "./stored-record-reader.ts";

/** A cache older than this is re-read, in case another instance wrote records meanwhile (failover). */
const CACHE_MS = 60_000;

interface IdCache {
  /** Oldest first. */
  ids: string[];
  readAt: number;
}

export class ConsulRunHistory {
  readonly #consul: ConsulClient;
  readonly #layout: KvLayout;
  readonly #ids = new Map<string, IdCache>();
  readonly #read: StoredRecordReader;

  constructor(consul: ConsulClient, layout: KvLayout, read: StoredRecordReader) {
    this.#consul = consul;
    this.#layout = layout;
    this.#read = read;
  }

  async put(record: RunRecord, retention: RunRetention): Promise<void> {
    await this.#consul.kvPut(this.#layout.runKey(record.task, record.id), JSON.stringify(record));
    const cache = await this.#cache(record.task);
    if (!cache.ids.includes(record.id)) {
      cache.ids.push(record.id);
      cache.ids.sort();
    }
    const cutoff = Date.now() - retention.maxAgeMs;
    const overCount = Math.max(0, cache.ids.length - retention.maxRunsPerTask);
    const dropped = cache.ids.filter((id, index) => index < overCount || runIdTime(id) < cutoff);
    if (dropped.length === 0) return;
    cache.ids = cache.ids.filter((id) => !dropped.includes(id));
    for (const id of dropped) await this.#consul.kvDelete(this.#layout.runKey(record.task, id));
  }

  async list(task: string, query: RunQuery): Promise<RunPage> {
    const pairs = await this.#consul.kvList(this.#layout.taskRunsPrefix(task));
    const decoded = await Promise.all(pairs.map((pair) => this.#read.run(pair, task)));
    const records = decoded.filter((record): record is RunRecord => record !== undefined).sort((a, b) => (a.id < b.id ? -1 : 1));
    return pageRuns(records, query);
  }

  async get(task: string, id: string): Promise<RunRecord | undefined> {
    const pair = await this.#consul.kvGet(this.#layout.runKey(task, id));
    return pair ? await this.#read.run(pair, task) : undefined;
  }

  async deleteTask(task: string): Promise<void> {
    this.#ids.delete(task);
    await this.#consul.kvDelete(this.#layout.taskRunsPrefix(task), { recurse: true });
  }

  async reset(): Promise<void> {
    this.#ids.clear();
    await this.#consul.kvDelete(this.#layout.runsPrefix, { recurse: true });
  }

  async #cache(task: string): Promise<IdCache> {
    const cached = this.#ids.get(task);
    if (cached && Date.now() - cached.readAt < CACHE_MS) return cached;
    const prefix = this.#layout.taskRunsPrefix(task);
    const pairs = await this.#consul.kvList(prefix);
    const fresh = { ids: pairs.map((pair) => pair.key.slice(prefix.length)).sort(), readAt: Date.now() };
    this.#ids.set(task, fresh);
    return fresh;
  }
}
