/**
 * @module Reading the task store's records from Consul KV so that a damaged one never breaks more
 * than itself (damaged-records.ts): a damaged task is left out and reported with how to repair it;
 * a damaged event list reads as empty and a damaged run record is left out (then deleted), both
 * set aside first. Every read of a record in the store goes through here.
 */
import type { ConsulClient, KvPair, Logger, RunRecord, StoredTask, TaskEvent } from "../../../core/plugin-api/mod.ts";
import { type DamagedRecords, decodeRecord, setAside } from "./damaged-records.ts";
import type { KvLayout } from "./kv-layout.ts";

export interface RecordReaderDeps {
  readonly consul: ConsulClient;
  readonly layout: KvLayout;
  readonly damaged: DamagedRecords;
  readonly logger: Logger;
}

/** How an operator brings a damaged task back (said in its status and in the log). */
export function taskRepairAdvice(name: string): string {
  return `the task does not run until repaired: DELETE /v1/tasks/${name} removes it (then create it again), ` +
    "or restart with -reset-storage to store the config file's tasks anew (tasks created through the API are dropped)";
}

export class StoredRecordReader {
  readonly #deps: RecordReaderDeps;

  constructor(deps: RecordReaderDeps) {
    this.#deps = deps;
  }

  /** The task stored at `pair`, or undefined (reported) when it cannot be decoded. */
  task(pair: KvPair): StoredTask | undefined {
    const { layout, damaged } = this.#deps;
    const name = pair.key.slice(layout.tasksPrefix.length);
    const decoded = decodeRecord<StoredTask>("task", pair.value);
    const error = "error" in decoded
      ? decoded.error
      : decoded.value.config.name !== name ? `it holds task "${decoded.value.config.name}", not "${name}"` : undefined;
    if (error === undefined && "value" in decoded) {
      damaged.cleared(pair.key);
      return decoded.value;
    }
    damaged.report({ key: pair.key, kind: "task", task: name, error: error!, action: taskRepairAdvice(name) });
    return undefined;
  }

  /** The events stored at `pair` (none when there is no key); a damaged list is set aside and reads as none. */
  async events(pair: KvPair | undefined, task: string): Promise<TaskEvent[]> {
    if (!pair) return [];
    const decoded = decodeRecord<TaskEvent[]>("events", pair.value);
    if ("value" in decoded) return decoded.value;
    await this.#setAside(pair, "events", task, decoded.error, "the task's events start again with its next run");
    return [];
  }

  /** The run record at `pair`, or undefined: a damaged one is set aside and deleted, so it is reported once. */
  async run(pair: KvPair, task: string): Promise<RunRecord | undefined> {
    const decoded = decodeRecord<RunRecord>("run", pair.value);
    if ("value" in decoded) return decoded.value;
    await this.#setAside(pair, "run", task, decoded.error, "the run history goes on without it");
    await this.#deps.consul.kvDelete(pair.key, { cas: pair.modifyIndex }).catch(() => false);
    return undefined;
  }

  /** A run record's detail (output, resources, outputs); a damaged one is set aside, deleted and reads as none. */
  async runDetail(pair: KvPair | undefined, task: string): Promise<Partial<RunRecord>> {
    if (!pair) return {};
    const decoded = decodeRecord<Partial<RunRecord>>("run-detail", pair.value);
    if ("value" in decoded) return decoded.value;
    await this.#setAside(pair, "run-detail", task, decoded.error, "the run is shown without its output");
    await this.#deps.consul.kvDelete(pair.key, { cas: pair.modifyIndex }).catch(() => false);
    return {};
  }

  /** The current value for a read-modify-write; a damaged one is set aside and replaced by the write. */
  async current<T>(pair: KvPair | undefined, kind: "task" | "events", task: string): Promise<T | undefined> {
    if (!pair) return undefined;
    const decoded = decodeRecord<T>(kind, pair.value);
    if ("value" in decoded) return decoded.value;
    await this.#setAside(pair, kind, task, decoded.error, "replaced by the write that found it");
    return undefined;
  }

  async #setAside(pair: KvPair, kind: "task" | "events" | "run" | "run-detail", task: string, error: string, then: string): Promise<void> {
    const { consul, layout, damaged, logger } = this.#deps;
    if (damaged.has(pair.key) && kind !== "task") return;
    const aside = await setAside(consul, layout, pair.key, pair.value, logger);
    damaged.report({ key: pair.key, kind, task, error, action: `set aside to ${aside}; ${then}` });
  }
}
