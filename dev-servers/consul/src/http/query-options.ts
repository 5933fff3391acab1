/** @module Common read parameters: index/wait, consistency mode, dc, ns, with Consul's validation texts. */
import { badRequest, serverError } from "../api-error.ts";
import { parseGoDuration } from "../go-duration.ts";
import type { Consistency } from "./respond.ts";

/** Default and maximum blocking wait (Consul's DefaultQueryTime / MaxQueryTime). */
const DEFAULT_WAIT_MS = 5 * 60_000;
const MAX_WAIT_MS = 10 * 60_000;
/** Consul's JitterFraction: up to wait/16 extra. */
const JITTER_FRACTION = 16;

export interface ReadOptions {
  readonly minIndex: number;
  /** Total wait including jitter, in ms. */
  readonly waitMs: number;
  readonly consistency: Consistency;
  readonly filter: string | undefined;
}

/** Presence-only flag (`?recurse`, `?recurse=false` and `?recurse=` all mean true). */
export function flag(params: URLSearchParams, name: string): boolean {
  return params.has(name);
}

export function parseReadOptions(params: URLSearchParams, datacenter: string): ReadOptions {
  checkDatacenter(params, datacenter);
  const indexText = params.get("index");
  let minIndex = 0;
  if (indexText !== null && indexText !== "") {
    if (!/^\d+$/.test(indexText)) throw badRequest("Invalid index");
    minIndex = Number(indexText);
  }
  let waitMs = DEFAULT_WAIT_MS;
  const waitText = params.get("wait");
  if (waitText !== null && waitText !== "") {
    const ns = parseGoDuration(waitText);
    if (ns === undefined || ns < 0) throw badRequest("Invalid wait time");
    if (ns > 0) waitMs = Math.min(ns / 1e6, MAX_WAIT_MS);
  }
  waitMs += Math.random() * (waitMs / JITTER_FRACTION);
  return { minIndex, waitMs, consistency: parseConsistency(params), filter: params.get("filter") ?? undefined };
}

function parseConsistency(params: URLSearchParams): Consistency {
  const stale = params.has("stale");
  const consistent = params.has("consistent");
  if (stale && consistent) throw badRequest("Cannot specify ?stale with ?consistent, conflicting semantics.");
  if (params.has("cached") && consistent) {
    throw badRequest("Cannot specify ?cached with ?consistent, conflicting semantics.");
  }
  const maxStale = params.get("max_stale");
  if (maxStale !== null && parseGoDuration(maxStale) === undefined) {
    throw badRequest(`Invalid max_stale value "${maxStale}"`);
  }
  return stale || maxStale !== null ? "stale" : consistent ? "consistent" : "leader";
}

/**
 * Accepts the local DC (any case) or none; Consul CE refuses any namespace, `default` included
 * (`agent/http_ce.go parseEntMeta` checks only for a non-empty value).
 */
export function checkDatacenter(params: URLSearchParams, datacenter: string): void {
  const dc = params.get("dc");
  if (dc && dc.toLowerCase() !== datacenter.toLowerCase()) throw serverError("No path to datacenter");
  const ns = params.get("ns");
  if (ns) {
    throw badRequest(`Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature`);
  }
}

/** Go strconv.ParseBool for `?passing` (an empty value means true). */
export function parseBoolParam(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  if (value === null) return false;
  if (["", "1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw badRequest(`Invalid value for ?${name}`);
}
