/** @module Builds CTS's `consul_kv` variable from a KV answer (single key or recursive list). */
import type { KvEntryBody } from "./consul-responses.ts";
import { compareStrings } from "./services-map.ts";

const utf8 = new TextDecoder();

/** Decodes a KV `Value` (base64 of raw bytes, `null` when empty) as UTF-8 text. */
export function decodeKvValue(value: string | null | undefined): string {
  if (!value) return "";
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return utf8.decode(bytes);
}

/**
 * Non-recursive: `{ [path]: value }`, or `{}` when the key does not exist (404 → `undefined`).
 * Recursive: every key under the prefix, keyed by its full path, sorted.
 */
export function buildConsulKv(
  body: readonly KvEntryBody[] | null | undefined,
  options: { readonly path: string; readonly recurse: boolean },
): Record<string, string> {
  const entries = Array.isArray(body) ? body : [];
  const result: Record<string, string> = {};
  if (!options.recurse) {
    const entry = entries.find((e) => e.Key === options.path) ?? entries[0];
    if (entry) result[options.path] = decodeKvValue(entry.Value);
    return result;
  }
  const sorted = entries.filter((e) => typeof e.Key === "string")
    .sort((a, b) => compareStrings(a.Key!, b.Key!));
  for (const entry of sorted) result[entry.Key!] = decodeKvValue(entry.Value);
  return result;
}
