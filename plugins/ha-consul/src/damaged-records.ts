/**
 * @module Stored records that cannot be decoded (truncated or hand-edited JSON, the wrong shape):
 * each is reported once by its key at ERROR and listed (`/v1/status`, `/v1/status/cluster`) until a
 * good value replaces it, and nothing else stops because of it. An event list or a run record is
 * copied to `<root>/damaged/...` first (set aside), so it can be looked at after it is replaced.
 *
 * One registry per cluster config, shared by the task store and the election (both are services of
 * this plugin, created apart): `damagedRecordsFor(config, logger)`.
 */
import { errorMessage, type ConsulClient, type CtsConfig, type DamagedRecord, type DamagedRecordKind, type Logger } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";

/** The newest this many are listed (each key once): a flood of damaged runs must not grow the status. */
const LISTED = 100;

export type Decoded<T> = { readonly value: T } | { readonly error: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What each kind must look like once parsed (beyond being JSON). */
const SHAPES: Readonly<Record<DamagedRecordKind, { readonly expected: string; readonly ok: (value: unknown) => boolean }>> = {
  task: { expected: 'an object with "config": {"name": ...}', ok: (v) => isObject(v) && isObject(v["config"]) && typeof v["config"]["name"] === "string" },
  events: { expected: "an array of events", ok: (v) => Array.isArray(v) && v.every((event) => isObject(event) && typeof event["id"] === "string") },
  run: { expected: 'an object with "id" and "task"', ok: (v) => isObject(v) && typeof v["id"] === "string" && typeof v["task"] === "string" },
  "run-detail": { expected: "an object", ok: isObject },
  leader: { expected: 'an object with "id"', ok: (v) => isObject(v) && typeof v["id"] === "string" },
  member: { expected: 'an object with "id"', ok: (v) => isObject(v) && typeof v["id"] === "string" },
  owner: { expected: 'an object with "id"', ok: (v) => isObject(v) && typeof v["id"] === "string" },
};

/** Parses `raw` as a record of `kind`; the error says what is wrong, never quotes the value. */
export function decodeRecord<T>(kind: DamagedRecordKind, raw: string): Decoded<T> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { error: `its value (${raw.length} bytes) is not valid JSON: ${whereItBreaks(errorMessage(error))}` };
  }
  const shape = SHAPES[kind];
  return shape.ok(value) ? { value: value as T } : { error: `its value is not ${shape.expected}` };
}

/**
 * Where JSON.parse gave up, without the excerpt of the value its message may quote: a stored task
 * holds variables, and a damaged one is reported in logs and `/v1/status`.
 */
function whereItBreaks(message: string): string {
  if (/end of JSON input/i.test(message)) return "it ends early";
  const position = /at position (\d+)/.exec(message)?.[1];
  return position !== undefined ? `it breaks at position ${position}` : "it cannot be parsed";
}

export class DamagedRecords {
  readonly #logger: Logger;
  readonly #records = new Map<string, DamagedRecord>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Lists `record` and logs it at ERROR, once per key until `cleared`. */
  report(record: Omit<DamagedRecord, "since">): void {
    if (this.#records.has(record.key)) return;
    this.#records.set(record.key, { ...record, since: new Date().toISOString() });
    for (const key of [...this.#records.keys()].slice(0, Math.max(0, this.#records.size - LISTED))) this.#records.delete(key);
    this.#logger.error("stored record cannot be decoded", {
      key: record.key, kind: record.kind, ...(record.task !== undefined ? { task_name: record.task } : {}), error: record.error, action: record.action,
    });
  }

  /** A good value is stored at `key` again. */
  cleared(key: string): void {
    const record = this.#records.get(key);
    if (!record || record.kind === "events" || record.kind === "run") return; // set aside: listed as history
    this.#records.delete(key);
    this.#logger.info("stored record is readable again", { key, kind: record.kind });
  }

  has(key: string): boolean {
    return this.#records.has(key);
  }

  /** Newest first. */
  list(): DamagedRecord[] {
    return [...this.#records.values()].reverse();
  }
}

/** Copies a damaged value to `<root>/damaged/<its path under root>`; returns that key. A failure is logged, never thrown. */
export async function setAside(consul: ConsulClient, layout: KvLayout, key: string, raw: string, logger: Logger): Promise<string> {
  const aside = `${layout.root}/damaged/${key.startsWith(`${layout.root}/`) ? key.slice(layout.root.length + 1) : key}`;
  await consul.kvPut(aside, raw).catch((error: unknown) => logger.warn("cannot set a damaged record aside", { key, error: errorMessage(error) }));
  return aside;
}

/** For a store used on its own (tests, benches): nothing to tell. */
export const quietLogger: Logger = {
  name: "quiet", trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger,
};

const registries = new WeakMap<CtsConfig, DamagedRecords>();

/** The one registry of the cluster `config` describes (the store's and the election's). */
export function damagedRecordsFor(config: CtsConfig, logger: Logger): DamagedRecords {
  let registry = registries.get(config);
  if (!registry) registries.set(config, registry = new DamagedRecords(logger));
  return registry;
}
