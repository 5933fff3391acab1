/** @module A `transport {}` block (of `consul` or `vault`) with CTS's defaults: durations in milliseconds, counts as numbers. */
import { parseGoDuration } from "../plugin-api/mod.ts";

type Json = Record<string, unknown>;

export function transportConfig(raw: Json): Readonly<Record<string, number | boolean>> {
  return {
    dial_keep_alive: ms(raw.dial_keep_alive, 30_000),
    dial_timeout: ms(raw.dial_timeout, 30_000),
    disable_keep_alives: (raw.disable_keep_alives as boolean | undefined) ?? false,
    idle_conn_timeout: ms(raw.idle_conn_timeout, 5_000),
    max_idle_conns: (raw.max_idle_conns as number | undefined) ?? 0,
    max_idle_conns_per_host: (raw.max_idle_conns_per_host as number | undefined) ?? 100,
    tls_handshake_timeout: ms(raw.tls_handshake_timeout, 10_000),
  };
}

function ms(value: unknown, fallback: number): number {
  return typeof value === "string" ? parseGoDuration(value) ?? fallback : fallback;
}
