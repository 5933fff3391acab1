/** @module Decodes Consul KV JSON without losing uint64 `Flags` (the Go lock flag is above 2^53). */
import type { KvPair } from "../../../core/plugin-api/mod.ts";

interface RawKvEntry {
  Key: string;
  Value: string | null;
  Flags: string | number;
  CreateIndex: number;
  ModifyIndex: number;
  LockIndex: number;
  Session?: string;
}

/**
 * Parses a KV list body. `Flags` digits are quoted before `JSON.parse` so they survive exactly;
 * keys cannot fake the pattern because quotes inside JSON strings are escaped.
 */
export function parseKvPairs(text: string): KvPair[] {
  if (text.trim() === "") return [];
  const quoted = text.replace(/"Flags"\s*:\s*(\d+)/g, '"Flags":"$1"');
  const entries = JSON.parse(quoted) as RawKvEntry[] | null;
  return (entries ?? []).map(toKvPair);
}

function toKvPair(entry: RawKvEntry): KvPair {
  return Object.freeze({
    key: entry.Key,
    value: entry.Value ? decodeBase64Utf8(entry.Value) : "",
    flags: BigInt(entry.Flags ?? 0),
    createIndex: entry.CreateIndex,
    modifyIndex: entry.ModifyIndex,
    lockIndex: entry.LockIndex,
    ...(entry.Session ? { session: entry.Session } : {}),
  });
}

export function decodeBase64Utf8(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** `a/b c/{d}` → `a/b%20c/%7Bd%7D`: each segment encoded, slashes kept (Consul decodes the path). */
export function encodeKeyPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}
