/** Sessions, lock-delay and invalidation (§2.6 and §3 of the Consul API reference). */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ConsulState } from "../../../dev-servers/consul/src/state/consul-state.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

let server: TestConsulDevServer;
let http: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startConsulDevServer({ node: "sess-node" });
  http = client(server.url);
});

afterAll(async () => {
  await server.stop();
});

const create = async (body: object) => {
  const res = await http.put("/v1/session/create", body);
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return (res.body as { ID: string }).ID;
};
const info = async (id: string) => ((await http.get(`/v1/session/info/${id}`)).body as Record<string, unknown>[])[0];

describe("sessions", () => {
  it("applies Consul's defaults and reports LockDelay in nanoseconds", async () => {
    const id = await create({});
    expect(await info(id)).toMatchObject({
      ID: id, Node: "sess-node", LockDelay: 15_000_000_000, Behavior: "release", TTL: "",
      NodeChecks: ["serfHealth"], ServiceChecks: null,
    });
    expect(await info(id)).not.toHaveProperty("Checks");
    // python-consul style lower-case keys; a bare number below 1000 means seconds
    const lower = await create({ name: "py", lockdelay: "2s", ttl: "10s", behavior: "delete" });
    expect(await info(lower)).toMatchObject({ Name: "py", LockDelay: 2_000_000_000, TTL: "10s", Behavior: "delete" });
    expect(await info(await create({ LockDelay: 7 }))).toMatchObject({ LockDelay: 7_000_000_000 });
    expect(await info(await create({ Checks: [] }))).toMatchObject({ NodeChecks: [] });
    expect((await http.get("/v1/session/info/unknown")).body).toEqual([]);
  });

  it("validates like Consul", async () => {
    expect(await http.put("/v1/session/create", { TTL: "5s" })).toMatchObject({
      status: 500, text: "Invalid Session TTL '5000000000', must be between [10s=24h0m0s]",
    });
    expect(await http.put("/v1/session/create", { Behavior: "keep" })).toMatchObject({
      status: 500, text: "Invalid Behavior setting 'keep'",
    });
    expect(await http.put("/v1/session/create", { Node: "ghost" })).toMatchObject({
      status: 500, text: "Missing node registration",
    });
    expect(await http.put("/v1/session/create", { Checks: ["nope"] })).toMatchObject({
      status: 500, text: "Missing check 'nope' registration",
    });
    expect(await http.put("/v1/session/create", "{bad")).toMatchObject({ status: 400 });
    expect(await http.put("/v1/session/renew/unknown")).toMatchObject({
      status: 404, text: "Session id 'unknown' not found",
    });
    expect((await http.put("/v1/session/destroy/unknown")).body).toBe(true);
  });

  it("invalidation releases held keys and starts the lock-delay; explicit release does not", async () => {
    const holder = await create({ LockDelay: "60s" });
    const other = await create({ LockDelay: "0s" });
    await http.put(`/v1/kv/sess/k?acquire=${holder}`, "v");
    await http.put(`/v1/session/destroy/${holder}`);
    const entry = ((await http.get("/v1/kv/sess/k")).body as { Session?: string; Value: string }[])[0]!;
    expect(entry.Session).toBeUndefined();
    expect(atob(entry.Value)).toBe("v");
    expect((await http.put(`/v1/kv/sess/k?acquire=${other}`, "v")).body).toBe(false);
    // plain writes are not blocked by the lock-delay
    expect((await http.put("/v1/kv/sess/k", "w")).body).toBe(true);
    await http.put(`/v1/kv/sess/free?acquire=${other}`, "v");
    await http.put(`/v1/kv/sess/free?release=${other}`, "v");
    expect((await http.put(`/v1/kv/sess/free?acquire=${other}`, "v")).body).toBe(true);
  });

  it("behavior delete removes held keys", async () => {
    const id = await create({ Behavior: "delete", LockDelay: "0s" });
    await http.put(`/v1/kv/sess/ephemeral?acquire=${id}`, "v");
    await http.put(`/v1/session/destroy/${id}`);
    expect((await http.get("/v1/kv/sess/ephemeral")).status).toBe(404);
  });

  it("a critical check invalidates the sessions tied to it (a warning does not)", async () => {
    await http.put("/v1/agent/service/register", { Name: "locked", Check: { TTL: "60s", Status: "passing" } });
    const id = await create({ NodeChecks: ["serfHealth"], ServiceChecks: [{ ID: "service:locked" }], LockDelay: "0s" });
    await http.put(`/v1/kv/sess/tied?acquire=${id}`, "v");
    await http.put("/v1/agent/check/warn/service:locked");
    expect(await info(id)).toBeDefined();
    await http.put("/v1/agent/check/fail/service:locked");
    expect(await info(id)).toBeUndefined();
    expect(((await http.get("/v1/kv/sess/tied")).body as { Session?: string }[])[0]!.Session).toBeUndefined();
    expect(await http.put("/v1/session/create", { ServiceChecks: [{ ID: "service:locked" }] })).toMatchObject({
      status: 500, text: "Check 'service:locked' is in critical state",
    });
  });

  it("deregistering a node destroys its sessions", async () => {
    await http.put("/v1/catalog/register", { Node: "ext", Address: "10.0.0.9" });
    const id = await create({ Node: "ext" });
    expect((await http.get("/v1/session/node/ext")).body).toHaveLength(1);
    await http.put("/v1/catalog/deregister", { Node: "ext" });
    expect(await info(id)).toBeUndefined();
  });
});

describe("session TTL timers", () => {
  it("expire after TTL×2, and renew resets the timer", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const state = new ConsulState({ datacenter: "dc1", nodeName: "n", nodeId: "id", address: "127.0.0.1" });
      state.write((tx) => {
        state.catalog.putNode(tx, { id: "id", node: "n", address: "127.0.0.1", datacenter: "dc1", taggedAddresses: {}, meta: {} });
      });
      const session = state.write((tx) => state.createSession(tx, {
        id: "s1", name: "", node: "n", lockDelayNs: 0, behavior: "release", ttl: "10s", nodeChecks: [], serviceChecks: null,
      }));
      vi.advanceTimersByTime(15_000);
      expect(state.renewSession(session.id)).toBeDefined();
      vi.advanceTimersByTime(19_000);
      expect(state.sessions.get("s1")).toBeDefined();
      vi.advanceTimersByTime(1_001);
      expect(state.sessions.get("s1")).toBeUndefined();
      expect(state.renewSession("s1")).toBeUndefined();
      state.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
