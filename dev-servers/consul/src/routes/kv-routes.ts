/** @module /v1/kv: get (single, recurse, keys, raw), put (cas, flags, acquire, release), delete. */
import type { Hono } from "hono";
import { ApiError, badRequest, serverError } from "../api-error.ts";
import { base64ToBytes, bytesToBase64 } from "../base64.ts";
import { parseUint64, type Uint64, ZERO_U64 } from "../exact-json.ts";
import { blockingQuery } from "../http/blocking-query.ts";
import { checkDatacenter, flag, parseReadOptions } from "../http/query-options.ts";
import { json, metaHeaders, notFoundWithMeta } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import type { KvEntry } from "../state/types.ts";
import { dirEntry, listKeys } from "./kv-json.ts";

/** Consul's default kv_max_value_size. */
export const KV_MAX_VALUE_SIZE = 512 * 1024;

async function getKv(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const key = ctx.rest;
  const options = parseReadOptions(params, state.datacenter);
  const recurse = flag(params, "recurse");
  const keysOnly = flag(params, "keys");
  if (!recurse && !keysOnly) {
    if (key === "") throw badRequest("Missing key name");
    authz.require("key", key, "read");
    const raw = flag(params, "raw");
    // The body is built inside the query, so identical watchers woken together share it (and its JSON).
    const { index, value } = await blockingQuery(ctx, options, [`kv:${key}`], () => {
      const entry = state.kv.get(key);
      return { index: entry?.modifyIndex ?? state.kv.tableIndex, value: entry && { entry, body: [dirEntry(entry)] } };
    });
    const meta = { index, consistency: options.consistency };
    if (!value) return notFoundWithMeta(meta);
    if (raw) return rawValue(value.entry, meta);
    return json(value.body, meta);
  }
  const separator = params.get("separator") ?? params.get("seperator") ?? "";
  const { index, value } = await blockingQuery(ctx, options, [`kvp:${key}`], () => {
    const entries = state.kv.list(key).filter((e) => authz.allowed("key", e.key, "read"));
    return {
      index: state.kv.prefixIndex(key) || state.kv.tableIndex,
      value: keysOnly ? listKeys(entries.map((e) => e.key), key, separator) : entries.map(dirEntry),
    };
  });
  const meta = { index, consistency: options.consistency };
  if (keysOnly) return value.length === 0 && key !== "" ? notFoundWithMeta(meta) : json(value, meta);
  return value.length === 0 ? notFoundWithMeta(meta) : json(value, meta);
}

function rawValue(entry: KvEntry, meta: { index: number; consistency: "leader" | "consistent" | "stale" }): Response {
  const bytes: Uint8Array<ArrayBuffer> = entry.value === null ? new Uint8Array() : base64ToBytes(entry.value);
  return new Response(bytes, {
    status: 200,
    headers: {
      ...metaHeaders(meta),
      "Content-Type": "text/plain",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
    },
  });
}

function uintParam(params: URLSearchParams, name: string): Uint64 | undefined {
  const text = params.get(name);
  if (text === null) return undefined;
  const value = parseUint64(text);
  if (!value) throw serverError(`strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`);
  return value;
}

function conflicting(params: URLSearchParams, names: readonly string[]): void {
  if (names.filter((name) => params.has(name)).length > 1) {
    throw badRequest(`Conflicting flags: ${params.toString()}\n`);
  }
}

async function putKv(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  checkDatacenter(params, state.datacenter);
  const key = ctx.rest;
  if (key === "") throw badRequest("Missing key name");
  conflicting(params, ["cas", "acquire", "release"]);
  const flags = uintParam(params, "flags") ?? ZERO_U64;
  const cas = uintParam(params, "cas");
  authz.require("key", key, "write");
  const bytes = new Uint8Array(await ctx.request.arrayBuffer());
  if (bytes.length > KV_MAX_VALUE_SIZE) {
    throw new ApiError(413, `Request body(${bytes.length} bytes) too large, max size: ${KV_MAX_VALUE_SIZE} bytes. See https://developer.hashicorp.com/consul/docs/agent/config/config-files#kv_max_value_size.`);
  }
  const write = { key, value: bytes.length === 0 ? null : bytesToBase64(bytes), flags };
  const acquire = params.get("acquire");
  const release = params.get("release");
  const result = state.write((tx) => {
    if (acquire !== null || release !== null) {
      const session = (acquire ?? release)!;
      if (session === "") throw serverError("missing session");
      if (!state.sessions.get(session)) throw serverError(`invalid session "${session}"`);
      return acquire !== null ? state.kv.lock(tx, write, session) : state.kv.unlock(tx, write, session);
    }
    if (cas !== undefined) return state.kv.cas(tx, write, Number(cas.digits));
    state.kv.set(tx, write);
    return true;
  });
  return json(result);
}

function deleteKv(ctx: RouteContext): Response {
  const { params, state, authz } = ctx;
  checkDatacenter(params, state.datacenter);
  const key = ctx.rest;
  conflicting(params, ["recurse", "cas"]);
  if (flag(params, "recurse")) {
    authz.requireKeyWritePrefix(key);
    state.write((tx) => state.kv.deleteTree(tx, key));
    return json(true);
  }
  if (key === "") throw badRequest("Missing key name");
  authz.require("key", key, "write");
  const cas = uintParam(params, "cas");
  const result = state.write((tx) => {
    if (cas !== undefined) return state.kv.deleteCas(tx, key, Number(cas.digits));
    state.kv.delete(tx, key);
    return true;
  });
  return json(result);
}

export function kvRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/kv/", { GET: getKv, PUT: putKv, DELETE: deleteKv });
}
