/** @module Typed KV calls: get, list, put (cas/acquire/release/flags), delete. */
import type { KvPair, KvTxnOp, KvWriteOptions } from "../../../core/plugin-api/mod.ts";
import type { ConsulCall } from "./consul-call.ts";
import { encodeKeyPath, parseKvPairs } from "./kv-pair.ts";

export class KvApi {
  readonly #call: ConsulCall;

  constructor(call: ConsulCall) {
    this.#call = call;
  }

  async get(key: string, options: { signal?: AbortSignal } = {}): Promise<KvPair | undefined> {
    const response = await this.#call.send(`read KV key "${key}"`, {
      method: "GET", path: `/v1/kv/${encodeKeyPath(key)}`, signal: options.signal,
    }, [404]);
    return response.status === 404 ? undefined : parseKvPairs(response.text)[0];
  }

  async list(prefix: string, options: { signal?: AbortSignal } = {}): Promise<KvPair[]> {
    const response = await this.#call.send(`list KV prefix "${prefix}"`, {
      method: "GET", path: `/v1/kv/${encodeKeyPath(prefix)}`, query: { recurse: "true" }, signal: options.signal,
    }, [404]);
    return response.status === 404 ? [] : parseKvPairs(response.text);
  }

  async put(key: string, value: string, options: KvWriteOptions = {}): Promise<boolean> {
    const query: Record<string, string> = {};
    if (options.cas !== undefined) query.cas = String(options.cas);
    if (options.acquire !== undefined) query.acquire = options.acquire;
    if (options.release !== undefined) query.release = options.release;
    if (options.flags !== undefined) query.flags = BigInt.asUintN(64, options.flags).toString();
    const response = await this.#call.send(`write KV key "${key}"`, {
      method: "PUT", path: `/v1/kv/${encodeKeyPath(key)}`, query, body: value,
    });
    return response.text.trim() === "true";
  }

  async delete(key: string, options: { recurse?: boolean; cas?: number } = {}): Promise<boolean> {
    const query: Record<string, string> = {};
    if (options.recurse) query.recurse = "true";
    if (options.cas !== undefined) query.cas = String(options.cas);
    const response = await this.#call.send(`delete KV key "${key}"`, {
      method: "DELETE", path: `/v1/kv/${encodeKeyPath(key)}`, query,
    });
    return response.text.trim() === "true";
  }

  /** `PUT /v1/txn`: 200 = all applied, 409 = rolled back (a condition failed, e.g. the lock is not held). */
  async txn(ops: readonly KvTxnOp[]): Promise<boolean> {
    const body = ops.map((op) => ({
      KV: {
        Verb: op.verb,
        Key: op.key,
        ...(op.value !== undefined ? { Value: encodeBase64Utf8(op.value) } : {}),
        ...(op.session !== undefined ? { Session: op.session } : {}),
      },
    }));
    const response = await this.#call.send(`run a KV transaction of ${ops.length} operations`, {
      method: "PUT", path: "/v1/txn", body,
    }, [409]);
    return response.status !== 409;
  }
}

function encodeBase64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
