/** Every typed method and the blocking primitive against the embedded Consul-compatible server over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consulQuery, isCtsError } from "../../../core/plugin-api/mod.ts";
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { collectWatch } from "./watch-collector.ts";

/** The Go client's lock flag: above 2^53, so it only survives as a bigint. */
const LOCK_FLAG = 3304740253564472344n;

let server: Awaited<ReturnType<typeof startConsulDevServer>>;
let client: ClosableConsulClient;

beforeAll(async () => {
  server = await startConsulDevServer();
  client = (await testClient(server.address)).client;
});
afterAll(async () => {
  client?.close();
  await server?.stop();
});

describe("consul client against the dev server", () => {
  it("reads the agent's node and datacenter", async () => {
    const self = await client.agentSelf();
    expect(self.nodeName).not.toBe("");
    expect(self.datacenter).toBe("dc1");
    expect(client.address).toBe(`http://${server.address}`);
  });

  it("puts, gets, lists and deletes KV pairs, with exact uint64 flags and odd keys", async () => {
    expect(await client.kvGet("m/none")).toBeUndefined();
    expect(await client.kvList("m/")).toEqual([]);
    expect(await client.kvPut("m/a", "héllo wörld", { flags: LOCK_FLAG })).toBe(true);
    expect(await client.kvPut("m/b {x} c?d#e", "2")).toBe(true);
    expect(await client.kvPut("m/empty", "")).toBe(true);
    const a = await client.kvGet("m/a");
    expect(a).toMatchObject({ key: "m/a", value: "héllo wörld", flags: LOCK_FLAG, lockIndex: 0 });
    expect(a!.modifyIndex).toBeGreaterThan(0);
    expect(a!.session).toBeUndefined();
    expect((await client.kvGet("m/b {x} c?d#e"))?.value).toBe("2");
    expect((await client.kvGet("m/empty"))?.value).toBe("");
    const listed = await client.kvList("m/");
    expect(listed.map((pair) => pair.key)).toEqual(["m/a", "m/b {x} c?d#e", "m/empty"]);
    expect(await client.kvDelete("m/empty")).toBe(true);
    expect(await client.kvGet("m/empty")).toBeUndefined();
    expect(await client.kvDelete("m/", { recurse: true })).toBe(true);
    expect(await client.kvList("m/")).toEqual([]);
  });

  it("honours cas on put and delete", async () => {
    expect(await client.kvPut("cas/k", "1", { cas: 0 })).toBe(true);
    expect(await client.kvPut("cas/k", "2", { cas: 0 })).toBe(false);
    const first = (await client.kvGet("cas/k"))!;
    expect(await client.kvPut("cas/k", "3", { cas: first.modifyIndex + 1000 })).toBe(false);
    expect(await client.kvPut("cas/k", "3", { cas: first.modifyIndex })).toBe(true);
    const second = (await client.kvGet("cas/k"))!;
    expect(second.value).toBe("3");
    expect(await client.kvDelete("cas/k", { cas: first.modifyIndex })).toBe(false);
    expect(await client.kvDelete("cas/k", { cas: second.modifyIndex })).toBe(true);
    expect(await client.kvGet("cas/k")).toBeUndefined();
  });

  it("creates, reads, renews and destroys sessions, and locks keys with them", async () => {
    const id = await client.sessionCreate({ name: "cts-test", ttl: "15s", behavior: "release", lockDelay: "0s" });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const info = await client.sessionInfo(id);
    expect(info).toMatchObject({ id, name: "cts-test", ttl: "15s", behavior: "release" });
    expect(info!.node).not.toBe("");
    expect(await client.sessionRenew(id)).toBe(true);

    const other = await client.sessionCreate({ name: "other", checks: [] });
    expect(await client.kvPut("lock/leader", "me", { acquire: id, flags: LOCK_FLAG })).toBe(true);
    expect(await client.kvPut("lock/leader", "you", { acquire: other })).toBe(false);
    const held = (await client.kvGet("lock/leader"))!;
    expect(held).toMatchObject({ value: "me", session: id, lockIndex: 1, flags: LOCK_FLAG });
    expect(await client.kvPut("lock/leader", "me", { release: other })).toBe(false);
    expect(await client.kvPut("lock/leader", "released", { release: id, flags: LOCK_FLAG })).toBe(true);
    expect((await client.kvGet("lock/leader"))?.session).toBeUndefined();

    await client.sessionDestroy(id);
    await client.sessionDestroy(other);
    expect(await client.sessionInfo(id)).toBeUndefined();
    expect(await client.sessionRenew(id)).toBe(false);
  });

  it("surfaces Consul's error text as CTS_ERR_CONSUL", async () => {
    const error = await client.sessionCreate({ name: "bad", behavior: "explode" as "delete" }).catch((e: unknown) => e);
    expect(isCtsError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Cannot create session "bad": Unexpected response code: 500 Invalid Behavior setting 'explode'/);
    const missing = await client.deregisterService("no-such-service").catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/^Cannot deregister service "no-such-service": Unexpected response code: 404 Unknown service ID/);
  });

  it("registers and deregisters an agent service, visible to a blocking query", async () => {
    const services = consulQuery("/v1/agent/services");
    await client.registerService({ ID: "api-1", Name: "api", Tags: ["v1"], Port: 8080, Meta: { team: "a" } });
    const listed = (await client.query(services)).data as Record<string, { Service: string; Port: number }>;
    expect(listed["api-1"]).toMatchObject({ Service: "api", Port: 8080 });
    const health = await client.query(consulQuery("/v1/health/service/api", { passing: "true" }));
    expect((health.data as unknown[]).length).toBe(1);
    expect(health.index).toBeGreaterThan(0);
    await client.deregisterService("api-1", {});
    const after = (await client.query(services)).data as Record<string, unknown>;
    expect(after["api-1"]).toBeUndefined();
  });

  it("a blocking query returns as soon as the key changes, and an unchanged one after wait", async () => {
    await client.kvPut("block/k", "v1");
    const query = consulQuery("/v1/kv/block/k");
    const first = await client.query(query);
    const timedOut = await client.query(query, { index: first.index, wait: "200ms" });
    expect(timedOut.index).toBe(first.index);
    const pending = client.query(query, { index: first.index, wait: "5m" });
    await client.kvPut("block/k", "v2");
    const changed = await pending;
    expect(changed.index).toBeGreaterThan(first.index);
    expect(atobValue(changed.data)).toBe("v2");
  });

  it("watch delivers the first result and then each change, once per index", async () => {
    const query = consulQuery("/v1/kv/watched/key");
    const seen = collectWatch();
    const stop = new AbortController();
    const watching = client.watch(query, seen.onResult, stop.signal);
    const first = await seen.next();
    expect(first.data).toBeUndefined(); // missing key: 404 with an index
    await client.kvPut("watched/key", "one");
    const second = await seen.next((r) => atobValue(r.data) === "one");
    expect(seen.results).toHaveLength(2); // the change arrived in the very next answer
    await client.kvPut("watched/key", "one"); // idempotent: no new index, no delivery
    await client.kvPut("watched/key", "two");
    await seen.next((r) => atobValue(r.data) === "two");
    stop.abort();
    await watching;
    const indexes = seen.results.map((r) => r.index);
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(second.index).toBeGreaterThan(first.index);
    expect(seen.results.map((r) => atobValue(r.data))).toEqual([undefined, "one", "two"]);
  });
});

function atobValue(data: unknown): string | undefined {
  const entry = (data as { Value: string | null }[] | undefined)?.[0];
  return entry ? (entry.Value ? atob(entry.Value) : "") : undefined;
}
