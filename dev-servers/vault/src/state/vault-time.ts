/** @module Vault's time fields: RFC 3339 timestamps with nanoseconds, and TTLs in whole seconds. */
import { badRequest } from "../http/vault-answer.ts";
import { parseGoDuration } from "../../../../core/plugin-api/mod.ts";

/** Vault writes `2026-11-26T03:00:00.123456789Z`; JavaScript has milliseconds, padded here. */
export function vaultTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z");
}

/** A TTL as Vault reads it: whole seconds as a number or numeric string, or a Go duration ("1h"). */
export function ttlSeconds(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value);
  if (typeof value === "string") {
    if (/^\d+$/.test(value)) return Number(value);
    const ms = parseGoDuration(value);
    if (ms !== undefined && ms >= 0) return Math.floor(ms / 1000);
  }
  throw badRequest(`error converting input ${JSON.stringify(value)} for field "${field}": cannot parse as a duration`);
}
