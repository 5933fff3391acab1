/** @module Canonical JSON and its SHA-256: how the engine tells whether a task's inputs really changed. */

/**
 * JSON with object keys sorted at every level, so equal data always gives equal text. The text is
 * exactly `JSON.stringify` of a key-sorted copy (stored fingerprints stay valid), written in one
 * pass without building that copy: a task over 10 000 instances fingerprints every run.
 */
export function canonicalJson(value: unknown): string {
  // As JSON.stringify: nothing to write (its `undefined`) for these at the top level.
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return JSON.stringify(value);
  const out: string[] = [];
  write(out, value);
  return out.join("");
}

/** The original definition, kept for values outside plain data (class instances, `toJSON`). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** Keys JavaScript enumerates first, in numeric order, whatever the insertion order (array indexes). */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
function isArrayIndex(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) < 4294967295;
}

function write(out: string[], value: unknown): void {
  if (value === null || typeof value !== "object") {
    // Top level or array item: JSON.stringify's own answer (undefined, functions and symbols are null in arrays).
    out.push(JSON.stringify(value) ?? "null");
    return;
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) {
      out.push(JSON.stringify(sortKeys(value)));
      return;
    }
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      const item: unknown = value[i];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") out.push("null");
      else write(out, item);
    }
    out.push("]");
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    out.push(JSON.stringify(sortKeys(value)));
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  // The sorted copy would enumerate array-index keys first, in numeric order.
  let ordered = keys;
  if (keys.some(isArrayIndex)) {
    ordered = [...keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))];
  }
  out.push("{");
  let first = true;
  for (const key of ordered) {
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    out.push(first ? "" : ",", JSON.stringify(key), ":");
    first = false;
    write(out, item);
  }
  out.push("}");
}

/** Hex SHA-256 of the canonical JSON (web crypto, so it runs unchanged on Node and Deno). */
export async function inputHash(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
