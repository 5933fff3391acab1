/** @module KV entries on the wire: Consul's DirEntry field order, `Session` omitted when unlocked. */
import type { Uint64 } from "../exact-json.ts";
import type { KvEntry } from "../state/types.ts";

export interface DirEntryJson {
  LockIndex: number;
  Key: string;
  Flags: Uint64;
  Value: string | null;
  Session?: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export function dirEntry(entry: KvEntry): DirEntryJson {
  return {
    LockIndex: entry.lockIndex,
    Key: entry.key,
    Flags: entry.flags,
    Value: entry.value,
    ...(entry.session ? { Session: entry.session } : {}),
    CreateIndex: entry.createIndex,
    ModifyIndex: entry.modifyIndex,
  };
}

/** `?keys` with an optional separator: keys deeper than the separator collapse to their "folder". */
export function listKeys(keys: readonly string[], prefix: string, separator: string): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const at = separator ? key.indexOf(separator, prefix.length) : -1;
    out.add(at >= 0 ? key.slice(0, at + separator.length) : key);
  }
  return [...out];
}
