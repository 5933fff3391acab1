/**
 * @module The run history in Consul KV: per record one small summary key (`<root>/runs/<task>/<id>`)
 * and, when it has any, one detail key (`<root>/run-details/<task>/<id>`: output, resources,
 * outputs), so a page of records reads summaries only (run-index.ts) and no value nears Consul's
 * 512 KiB limit (run-detail-fit.ts). Retention deletes the oldest records in transactions; the ids
 * are known from a per-task cache (refreshed from KV by a write after a minute, or on a new leader's
 * first write or prune), so neither a write nor a prune lists the history each time.
 */
import { runDetail, runIdTime, runSummary } from "../../../core/plugin-api/mod.ts";
import type { ConsulClient, KvTxnOp, RunPage, RunQuery, RunRecord, RunRetention } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";
import { fittedDetail } from "./run-detail-fit.ts";
import { listRunIds, readRunPage } from "./run-index.ts";
import type { StoredRecordReader } from "./stored-record-reader.ts";

/** A cache older than this is re-read, in case another instance wrote records meanwhile (failover). */
const CACHE_MS = 60_000;
/** Consul takes at most 64 operations a transaction: two keys per record. */
const RECORDS_PER_TXN = 32;

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
    const detail = runDetail(record);
    // The detail first: a summary that can be listed always has its detail readable.
    if (Object.keys(detail).length > 0) await this.#consul.kvPut(this.#layout.runDetailKey(record.task, record.id), fittedDetail(detail));
    await this.#consul.kvPut(this.#layout.runKey(record.task, record.id), JSON.stringify(runSummary(record)));
    const cache = await this.#cache(record.task);
    if (!cache.ids.includes(record.id)) {
      cache.ids.push(record.id);
      cache.ids.sort();
    }
    await this.#drop(record.task, cache, retention);
  }

  list(task: string, query: RunQuery): Promise<RunPage> {
    return readRunPage(this.#consul, this.#layout, task, query, (pair) => this.#read.run(pair, task));
  }

  async get(task: string, id: string): Promise<RunRecord | undefined> {
    const [summary, detail] = await Promise.all([
      this.#consul.kvGet(this.#layout.runKey(task, id)),
      this.#consul.kvGet(this.#layout.runDetailKey(task, id)),
    ]);
    const record = summary ? await this.#read.run(summary, task) : undefined;
    if (!record) return undefined;
    return { ...record, ...await this.#read.runDetail(detail, task) };
  }

  /** Uses the ids known from writes however old: only this instance writes a task's records while it runs the task. */
  async prune(task: string, retention: RunRetention): Promise<void> {
    await this.#drop(task, this.#ids.get(task) ?? await this.#cache(task), retention);
  }

  async deleteTask(task: string): Promise<void> {
    this.#ids.delete(task);
    await this.#consul.kvDelete(this.#layout.taskRunsPrefix(task), { recurse: true });
    await this.#consul.kvDelete(this.#layout.taskRunDetailsPrefix(task), { recurse: true });
  }

  async reset(): Promise<void> {
    this.#ids.clear();
    await this.#consul.kvDelete(this.#layout.runsPrefix, { recurse: true });
    await this.#consul.kvDelete(this.#layout.runDetailsPrefix, { recurse: true });
  }

  /** Deletes the records beyond `retention` (their summary and detail keys). */
  async #drop(task: string, cache: IdCache, retention: RunRetention): Promise<void> {
    const cutoff = Date.now() - retention.maxAgeMs;
    const overCount = Math.max(0, cache.ids.length - retention.maxRunsPerTask);
    const dropped = cache.ids.filter((id, index) => index < overCount || runIdTime(id) < cutoff);
    if (dropped.length === 0) return;
    const gone = new Set(dropped);
    cache.ids = cache.ids.filter((id) => !gone.has(id));
    for (let start = 0; start < dropped.length; start += RECORDS_PER_TXN) {
      const ops: KvTxnOp[] = dropped.slice(start, start + RECORDS_PER_TXN).flatMap((id) => [
        { verb: "delete", key: this.#layout.runKey(task, id) },
        { verb: "delete", key: this.#layout.runDetailKey(task, id) },
      ]);
      await this.#consul.kvTxn(ops);
    }
  }

  async #cache(task: string): Promise<IdCache> {
    const cached = this.#ids.get(task);
    if (cached && Date.now() - cached.readAt < CACHE_MS) return cached;
    const fresh = { ids: await listRunIds(this.#consul, this.#layout.taskRunsPrefix(task)), readAt: Date.now() };
    this.#ids.set(task, fresh);
    return fresh;
  }
}
