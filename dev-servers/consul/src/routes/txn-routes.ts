/** @module PUT /v1/txn: all-or-nothing KV operations (what Terraform's consul backend sends). */
import type { Hono } from "hono";
import { ApiError, badRequest } from "../api-error.ts";
import { isBase64 } from "../base64.ts";
import { field, parseUint64, stringField, type Uint64, ZERO_U64 } from "../exact-json.ts";
import { checkDatacenter } from "../http/query-options.ts";
import { readJsonBody } from "../http/read-body.ts";
import { json } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import type { ConsulState } from "../state/consul-state.ts";
import type { KvEntry } from "../state/types.ts";
import type { WriteTx } from "../state/write-tx.ts";
import { dirEntry, type DirEntryJson } from "./kv-json.ts";
import { KV_MAX_VALUE_SIZE } from "./kv-routes.ts";

const MAX_OPS = 128;
/** Consul's txn_max_req_len default. */
const MAX_BODY = 512 * 1024;

interface KvOp {
  readonly verb: string;
  readonly key: string;
  readonly value: string | null;
  readonly flags: Uint64;
  readonly index: number;
  readonly session: string;
}

class OpFailed extends Error {}

function parseOp(raw: unknown, position: number): KvOp {
  const kv = field(raw, "KV");
  if (kv === undefined || kv === null) throw badRequest(`Failed to parse body: operation ${position} is not a KV operation`);
  const value = field(kv, "Value");
  if (value !== undefined && value !== null && (typeof value !== "string" || !isBase64(value))) {
    throw badRequest("Failed to parse body: illegal base64 data in Value");
  }
  const flags = field(kv, "Flags");
  const index = field(kv, "Index");
  return {
    verb: stringField(kv, "Verb") ?? "",
    key: stringField(kv, "Key") ?? "",
    value: typeof value === "string" && value !== "" ? value : null,
    flags: flags === undefined || flags === null ? ZERO_U64 : parseUint64(String(flags)) ?? ZERO_U64,
    index: typeof index === "number" ? index : Number(index ?? 0),
    session: stringField(kv, "Session") ?? "",
  };
}

function noValue(entry: KvEntry): DirEntryJson {
  return { ...dirEntry(entry), Value: null };
}

/** Applies one op; returns its result entries; throws OpFailed with Consul's text on a failed condition. */
function apply(state: ConsulState, tx: WriteTx, op: KvOp): DirEntryJson[] {
  const { kv } = state;
  const write = { key: op.key, value: op.value, flags: op.flags };
  const current = () => kv.get(op.key);
  const session = () => {
    if (op.session === "") throw new OpFailed("missing session");
    if (!state.sessions.get(op.session)) throw new OpFailed(`invalid session "${op.session}"`);
  };
  switch (op.verb) {
    case "set": kv.set(tx, write); return [noValue(current()!)];
    case "cas":
      if (!kv.cas(tx, write, op.index)) throw new OpFailed(`failed to set key "${op.key}", index is stale`);
      return [noValue(current()!)];
    case "lock":
      session();
      if (!kv.lock(tx, write, op.session)) throw new OpFailed(`failed to lock key "${op.key}", lock is already held`);
      return [noValue(current()!)];
    case "unlock":
      if (!kv.unlock(tx, write, op.session)) {
        throw new OpFailed(`failed to unlock key "${op.key}", lock isn't held, or is held by another session`);
      }
      return [noValue(current()!)];
    case "get": {
      const entry = current();
      if (!entry) throw new OpFailed(`key "${op.key}" doesn't exist`);
      return [dirEntry(entry)];
    }
    case "get-or-empty": {
      const entry = current();
      return entry ? [dirEntry(entry)] : [];
    }
    case "get-tree": return kv.list(op.key).map(dirEntry);
    case "check-index": {
      const entry = current();
      if (!entry) throw new OpFailed(`key "${op.key}" doesn't exist`);
      if (entry.modifyIndex !== op.index) {
        throw new OpFailed(`failed index check for key "${op.key}", current modify index ${entry.modifyIndex} != ${op.index}`);
      }
      return [noValue(entry)];
    }
    case "check-session": {
      const entry = current();
      if (!entry) throw new OpFailed(`failed to check session, key "${op.key}" doesn't exist`);
      if (entry.session !== op.session) {
        throw new OpFailed(`failed session check for key "${op.key}", current session "${entry.session}" != "${op.session}"`);
      }
      return [noValue(entry)];
    }
    case "check-not-exists":
      if (current()) throw new OpFailed(`key "${op.key}" exists`);
      return [];
    case "delete": kv.delete(tx, op.key); return [];
    case "delete-tree": kv.deleteTree(tx, op.key); return [];
    case "delete-cas":
      if (!kv.deleteCas(tx, op.key, op.index)) throw new OpFailed(`failed to delete key "${op.key}", index is stale`);
      return [];
    default: throw new OpFailed(`unknown KV verb "${op.verb}"`);
  }
}

const READ_VERBS = new Set(["get", "get-or-empty", "get-tree", "check-index", "check-session", "check-not-exists"]);

async function txn(ctx: RouteContext): Promise<Response> {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const length = Number(ctx.request.headers.get("Content-Length") ?? 0);
  if (length > MAX_BODY) {
    throw new ApiError(413, `Request body too large, max size: ${MAX_BODY} bytes. See https://developer.hashicorp.com/consul/docs/agent/config/config-files#txn_max_req_len.`);
  }
  const body = await readJsonBody(ctx.request, "Failed to parse body");
  if (!Array.isArray(body)) throw badRequest("Failed to parse body: expected an array of operations");
  if (body.length > MAX_OPS) throw new ApiError(413, `Transaction contains too many operations (${body.length} > ${MAX_OPS})`);
  const ops = body.map(parseOp);
  for (const op of ops) {
    const size = op.value === null ? 0 : Math.floor(op.value.length * 3 / 4);
    if (size > KV_MAX_VALUE_SIZE) {
      throw new ApiError(413, `Value for key "${op.key}" is too large (${size} > ${KV_MAX_VALUE_SIZE} bytes)`);
    }
    if (op.verb === "delete-tree") authz.requireKeyWritePrefix(op.key);
    else authz.require("key", op.key, READ_VERBS.has(op.verb) ? "read" : "write");
  }
  const { kv } = state;
  const saved = { entries: new Map(kv.entries), tombstones: new Map(kv.tombstones), tableIndex: kv.tableIndex };
  const outcome = state.write((tx) => {
    const results: DirEntryJson[] = [];
    for (let i = 0; i < ops.length; i++) {
      try {
        results.push(...apply(state, tx, ops[i]!));
      } catch (error) {
        if (!(error instanceof OpFailed)) throw error;
        // Roll back: nothing of this txn becomes visible and nobody is woken.
        kv.entries.clear();
        for (const [k, v] of saved.entries) kv.entries.set(k, v);
        kv.tombstones.clear();
        for (const [k, v] of saved.tombstones) kv.tombstones.set(k, v);
        kv.tableIndex = saved.tableIndex;
        tx.kvKeys.clear();
        return { ok: false as const, error: { OpIndex: i, What: error.message } };
      }
    }
    return { ok: true as const, results };
  });
  if (!outcome.ok) return json({ Results: null, Errors: [outcome.error] }, undefined, 409);
  return json({ Results: outcome.results.length ? outcome.results.map((KV) => ({ KV })) : null, Errors: null });
}

export function txnRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/txn", { PUT: txn });
}
