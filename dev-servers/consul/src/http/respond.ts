/** @module Consul's response conventions: JSON bodies, plain-text errors, and the query-meta headers. */
import { ApiError } from "../api-error.ts";
import { stringifyExact } from "../exact-json.ts";

export type Consistency = "leader" | "consistent" | "stale";

/** Blocking-read metadata; `index` is never 0 on the wire ("It's always safe to return index=1"). */
export interface QueryMeta {
  readonly index: number;
  readonly consistency: Consistency;
}

export function metaHeaders(meta: QueryMeta): Record<string, string> {
  return {
    "X-Consul-Index": String(Math.max(1, meta.index)),
    "X-Consul-KnownLeader": "true",
    "X-Consul-LastContact": "0",
    "X-Consul-Effective-Consistency": meta.consistency,
  };
}

/** Bodies shared by many woken watchers (see QueryMemo) are serialized once. */
const serialized = new WeakMap<object, string>();

function serialize(body: unknown): string {
  if (typeof body !== "object" || body === null) return stringifyExact(body);
  let text = serialized.get(body);
  if (text === undefined) serialized.set(body, text = stringifyExact(body));
  return text;
}

const JSON_ONLY: Readonly<Record<string, string>> = { "Content-Type": "application/json" };
/**
 * Headers of JSON answers by index and consistency: watchers woken together share one. A plain
 * object rather than a list of pairs: on Node, @hono/node-server hands a plain object straight
 * to writeHead, while a list is first copied into a fetch Headers and back into an object per
 * response (~9% of the server's CPU when 10 000 watchers wake). Deno copies either alike.
 */
const jsonHeaders = new Map<string, Readonly<Record<string, string>>>();

function jsonHeadersFor(meta: QueryMeta): Readonly<Record<string, string>> {
  const key = `${meta.index}|${meta.consistency}`;
  let headers = jsonHeaders.get(key);
  if (headers === undefined) {
    if (jsonHeaders.size >= 64) jsonHeaders.clear();
    headers = Object.freeze({ ...JSON_ONLY, ...metaHeaders(meta) });
    jsonHeaders.set(key, headers);
  }
  return headers;
}

export function json(body: unknown, meta?: QueryMeta, status = 200): Response {
  return new Response(serialize(body), {
    status,
    headers: (meta ? jsonHeadersFor(meta) : JSON_ONLY) as Record<string, string>,
  });
}

/** Errors are Go's fmt.Fprint: plain text, which npm's papi shows verbatim when short. */
export function text(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...extra } });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return text(error.status, error.message);
  return text(500, error instanceof Error ? error.message : String(error));
}

/** 404 with an empty body but full index headers (python-consul and npm watches read them). */
export function notFoundWithMeta(meta: QueryMeta): Response {
  return new Response(null, { status: 404, headers: metaHeaders(meta) });
}
