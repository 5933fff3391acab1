/**
 * @module What changed in a task's inputs since its previous run, for the run history. The engine
 * keeps a compact digest of the inputs per task (one 32-bit hash per instance field, KV value and
 * tag list) instead of a copy, so a task over 100k instances keeps a few MB, not the instances; and
 * no value (a KV secret) ever leaves this file: a change lists ids, keys and field names only.
 */
import type { InputChange, InstanceChange, KeyedChange, TaskInputs } from "../../../core/plugin-api/mod.ts";

/** Entries listed per list; the rest are counted in `omitted`, so one record stays small. */
export const MAX_LISTED = 100;

/** One instance: its field names (shared between instances with the same shape) and their hashes. */
interface InstanceDigest {
  readonly fields: readonly string[];
  readonly hashes: Uint32Array;
}

export interface InputDigest {
  readonly services: ReadonlyMap<string, InstanceDigest>;
  readonly consul_kv?: ReadonlyMap<string, number>;
  readonly catalog_services?: ReadonlyMap<string, number>;
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over UTF-16 code units: fast, and collisions only cost a missed field name in a report. */
function fnvText(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/**
 * Hashes a JSON value by walking it (object keys sorted, type marks between parts), so equal data
 * gives equal hashes without building its canonical JSON text first.
 */
export function hashValue(value: unknown, hash = FNV_OFFSET): number {
  if (typeof value === "string") return fnvText(fnvText(hash, "\""), value);
  if (value === null || typeof value !== "object") return fnvText(hash, String(value));
  if (Array.isArray(value)) {
    hash = fnvText(hash, "[");
    for (const item of value) hash = fnvText(hashValue(item, hash), ",");
    return hash;
  }
  hash = fnvText(hash, "{");
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    hash = hashValue(record[key], fnvText(fnvText(hash, key), ":"));
  }
  return fnvText(hash, "}");
}

/** Field name lists are interned: 100k instances of one shape share one (sorted) array. */
const shapes = new Map<string, readonly string[]>();

function shapeOf(instance: object): readonly string[] {
  const keys = Object.keys(instance);
  const key = keys.join("\u0000");
  let shared = shapes.get(key);
  if (!shared) {
    shared = Object.freeze(keys.sort());
    if (shapes.size < 64) shapes.set(key, shared);
  }
  return shared;
}

function hashMap<V>(entries: Readonly<Record<string, V>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of Object.entries(entries)) out.set(key, hashValue(value) >>> 0);
  return out;
}

/**
 * Digests of immutable instances. The services map hands out the same frozen object for an
 * unchanged instance across answers and across the tasks that watch it, so each is hashed once
 * instead of on every run of every task (the digest is on the path from a change to the driver).
 */
const instanceDigests = new WeakMap<object, InstanceDigest>();

function digestInstance(instance: object): InstanceDigest {
  const cached = instanceDigests.get(instance);
  if (cached) return cached;
  const fields = shapeOf(instance);
  const hashes = new Uint32Array(fields.length);
  const record = instance as Record<string, unknown>;
  let immutable = Object.isFrozen(instance);
  for (let i = 0; i < fields.length; i++) {
    const value = record[fields[i]!];
    hashes[i] = hashValue(value) >>> 0;
    // Only one level of maps or lists is nested in an instance; a mutable one could change under the cache.
    if (typeof value === "object" && value !== null && !Object.isFrozen(value)) immutable = false;
  }
  const digest = { fields, hashes };
  if (immutable) instanceDigests.set(instance, digest);
  return digest;
}

export function digestInputs(inputs: TaskInputs): InputDigest {
  const services = new Map<string, InstanceDigest>();
  for (const [id, instance] of Object.entries(inputs.services)) services.set(id, digestInstance(instance));
  return {
    services,
    ...(inputs.consul_kv ? { consul_kv: hashMap(inputs.consul_kv) } : {}),
    ...(inputs.catalog_services ? { catalog_services: hashMap(inputs.catalog_services) } : {}),
  };
}

const NONE: string[] = [];

/** Counts what the caps leave out. */
class Capper {
  omitted = 0;
  take<T>(items: T[]): T[] {
    if (items.length <= MAX_LISTED) return items;
    this.omitted += items.length - MAX_LISTED;
    return items.slice(0, MAX_LISTED);
  }
}

function changedFields(before: InstanceDigest, after: InstanceDigest): string[] {
  if (before.fields === after.fields) {
    // The common case (same shape): compare hashes in place, no allocation unless something differs.
    let fields: string[] | undefined;
    for (let i = 0; i < after.hashes.length; i++) {
      if (before.hashes[i] !== after.hashes[i]) (fields ??= []).push(after.fields[i]!);
    }
    return fields ?? NONE;
  }
  const old = new Map<string, number>();
  before.fields.forEach((field, i) => old.set(field, before.hashes[i]!));
  const fields: string[] = [];
  after.fields.forEach((field, i) => {
    if (old.get(field) !== after.hashes[i]) fields.push(field);
    old.delete(field);
  });
  return [...fields, ...old.keys()].sort();
}

function keyedChange(before: ReadonlyMap<string, number> | undefined, after: ReadonlyMap<string, number>, cap: Capper): KeyedChange {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [key, hash] of after) {
    const old = before?.get(key);
    if (old === undefined) added.push(key);
    else if (old !== hash) changed.push(key);
  }
  const removed = before ? [...before.keys()].filter((key) => !after.has(key)) : [];
  return { added: cap.take(added.sort()), removed: cap.take(removed.sort()), changed: cap.take(changed.sort()) };
}

/** The change from `previous` (undefined: the task's first run) to `next`. */
export function diffInputs(previous: InputDigest | undefined, next: InputDigest): InputChange {
  const cap = new Capper();
  const added: string[] = [];
  const changed: InstanceChange[] = [];
  for (const [id, after] of next.services) {
    const before = previous?.services.get(id);
    if (!before) added.push(id);
    else {
      const fields = changedFields(before, after);
      if (fields.length > 0) changed.push({ id, fields });
    }
  }
  const removed = previous ? [...previous.services.keys()].filter((id) => !next.services.has(id)) : [];
  const change: { -readonly [K in keyof InputChange]: InputChange[K] } = {
    services: {
      added: cap.take(added.sort()),
      removed: cap.take(removed.sort()),
      changed: cap.take(changed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))),
    },
  };
  if (next.consul_kv) change.consul_kv = keyedChange(previous?.consul_kv, next.consul_kv, cap);
  if (next.catalog_services) change.catalog_services = keyedChange(previous?.catalog_services, next.catalog_services, cap);
  if (!previous) change.first = true;
  if (cap.omitted > 0) change.omitted = cap.omitted;
  return change;
}
