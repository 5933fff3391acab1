/** Blocking-query semantics of the dev server (§1 of the Consul API reference). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer as startBare } from "../../../dev-servers/consul/src/consul-dev-server.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client, until } from "./http-client.ts";

let server: TestConsulDevServer;
let http: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startConsulDevServer();
  http = client(server.url);
});

afterAll(async () => {
  await server.stop();
});

const parked = () => server.state.hub.size;

describe("blocking queries", () => {
  it("answers at once without index, with index headers even on a KV 404", async () => {
    const res = await http.get("/v1/kv/blocking/none");
    expect(res.status).toBe(404);
    expect(res.text).toBe("");
    expect(res.index).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("X-Consul-KnownLeader")).toBe("true");
    expect(res.headers.get("X-Consul-LastContact")).toBe("0");
    expect(res.headers.get("X-Consul-Effective-Consistency")).toBe("leader");
    expect((await http.get("/v1/kv/blocking/none?stale")).headers.get("X-Consul-Effective-Consistency")).toBe("stale");
  });

  it("parks until the watched key changes, ignoring other keys", async () => {
    await http.put("/v1/kv/blocking/a", "1");
    const first = await http.get("/v1/kv/blocking/a");
    const pending = http.get(`/v1/kv/blocking/a?index=${first.index}&wait=30s`);
    await until(() => parked() === 1);
    await http.put("/v1/kv/blocking/b", "unrelated");
    await new Promise((resolve) => setImmediate(resolve));
    expect(parked()).toBe(1);
    await http.put("/v1/kv/blocking/a", "2");
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.index).toBeGreaterThan(first.index);
    expect(atob((res.body as { Value: string }[])[0]!.Value)).toBe("2");
    expect(parked()).toBe(0);
  });

  it("returns the unchanged result with 200 when the wait expires", async () => {
    const first = await http.get("/v1/kv/blocking/a");
    const res = await http.get(`/v1/kv/blocking/a?index=${first.index}&wait=20ms`);
    expect(res.status).toBe(200);
    expect(res.index).toBe(first.index);
  });

  it("an idempotent write keeps ModifyIndex and does not answer the waiter", async () => {
    const first = await http.get("/v1/kv/blocking/a");
    await http.put("/v1/kv/blocking/a", "2");
    expect((await http.get("/v1/kv/blocking/a")).index).toBe(first.index);
  });

  it("drops the waiter when the client disconnects", async () => {
    const first = await http.get("/v1/kv/blocking/a");
    const controller = new AbortController();
    const pending = http.get(`/v1/kv/blocking/a?index=${first.index}&wait=60s`, { signal: controller.signal })
      .catch((error: unknown) => error);
    await until(() => parked() === 1);
    controller.abort();
    await pending;
    await until(() => parked() === 0);
    expect(parked()).toBe(0);
  });

  it("prefix reads wake on nested changes and never go backwards after deleting the newest key", async () => {
    await http.put("/v1/kv/tree/x", "1");
    const listed = await http.get("/v1/kv/tree/?recurse");
    const pending = http.get(`/v1/kv/tree/?recurse&index=${listed.index}`);
    await until(() => parked() === 1);
    await http.put("/v1/kv/tree/deep/y", "2");
    const woken = await pending;
    expect((woken.body as { Key: string }[]).map((e) => e.Key)).toEqual(["tree/deep/y", "tree/x"]);
    await http.del("/v1/kv/tree/deep/y");
    const afterDelete = await http.get("/v1/kv/tree/?keys");
    expect(afterDelete.body).toEqual(["tree/x"]);
    expect(afterDelete.index).toBeGreaterThan(woken.index);
  });

  it("health and catalog reads wake on check status and registrations", async () => {
    await http.put("/v1/agent/service/register", { Name: "blk", Check: { TTL: "60s", Status: "passing" } });
    const healthy = await http.get("/v1/health/service/blk?passing");
    expect(healthy.body).toHaveLength(1);
    const services = await http.get("/v1/catalog/services");
    const healthWait = http.get(`/v1/health/service/blk?passing&index=${healthy.index}`);
    const catalogWait = http.get(`/v1/catalog/services?index=${services.index}`);
    await until(() => parked() === 2);
    await http.put("/v1/agent/check/fail/service:blk?note=down");
    const unhealthy = await healthWait;
    expect(unhealthy.body).toEqual([]);
    expect(unhealthy.index).toBeGreaterThan(healthy.index);
    expect(parked()).toBe(1);
    await http.put("/v1/agent/service/register", { Name: "blk-2" });
    const listed = await catalogWait;
    expect(Object.keys(listed.body as object)).toEqual(expect.arrayContaining(["blk", "blk-2"]));
  });

  it("session lists wake on create", async () => {
    const list = await http.get("/v1/session/list");
    const pending = http.get(`/v1/session/list?index=${list.index}`);
    await until(() => parked() === 1);
    const { body } = await http.put("/v1/session/create", { Name: "blk" });
    const res = await pending;
    expect((res.body as { ID: string }[]).map((s) => s.ID)).toContain((body as { ID: string }).ID);
  });

  it("validates index, wait and consistency like Consul", async () => {
    expect(await http.get("/v1/kv/a?index=x")).toMatchObject({ status: 400, text: "Invalid index" });
    expect(await http.get("/v1/kv/a?index=1&wait=soon")).toMatchObject({ status: 400, text: "Invalid wait time" });
    expect(await http.get("/v1/kv/a?stale&consistent")).toMatchObject({
      status: 400, text: "Cannot specify ?stale with ?consistent, conflicting semantics.",
    });
    expect(await http.get("/v1/kv/a?dc=dc9")).toMatchObject({ status: 500, text: "No path to datacenter" });
    expect((await http.get("/v1/kv/a?ns=team")).status).toBe(400);
    // Consul CE refuses any namespace, `default` included (agent/http_ce.go parseEntMeta).
    expect(await http.get("/v1/health/service/web?ns=default")).toMatchObject({
      status: 400, text: `Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature`,
    });
    const header = await fetch(`${server.url}/v1/catalog/services`, { headers: { "X-Consul-Namespace": "default" } });
    expect(header.status).toBe(400);
    expect(await header.text()).toBe(`Invalid header: "X-Consul-Namespace" - Namespaces are a Consul Enterprise feature`);
  });

  it("restart keeps data on the same port and never moves the index backwards", async () => {
    await http.put("/v1/kv/restart/k", "kept");
    const before = await http.get("/v1/kv/restart/k");
    const catalogBefore = await http.get("/v1/catalog/services");
    const pending = http.get(`/v1/kv/restart/k?index=${before.index}&wait=60s`).catch((error: unknown) => error);
    await until(() => parked() === 1);
    await server.restart();
    await pending; // ended promptly by the stop (503 or a closed connection)
    const after = await http.get("/v1/kv/restart/k");
    expect(after.status).toBe(200);
    expect(after.index).toBe(before.index);
    await http.put("/v1/kv/restart/k", "changed");
    expect((await http.get("/v1/kv/restart/k")).index).toBeGreaterThan(before.index);
    expect((await http.get("/v1/catalog/services")).index).toBeGreaterThanOrEqual(catalogBefore.index);
  });

  it("without a snapshot, a restarted server still answers with larger indexes (seeded from the clock)", async () => {
    const first = await startBare();
    const bare = client(first.url);
    await bare.put("/v1/kv/seed/k", "v");
    const before = [await bare.get("/v1/kv/seed/k"), await bare.get("/v1/health/service/none"), await bare.get("/v1/session/list")];
    await first.stop();
    const second = await startBare({ port: first.port });
    try {
      // The client's pooled keep-alive socket died with the old server: a real client retries too.
      await bare.get("/v1/status/leader").catch(() => undefined);
      const after = [await bare.get("/v1/kv/seed/k"), await bare.get("/v1/health/service/none"), await bare.get("/v1/session/list")];
      expect(after[0]!.status).toBe(404);
      after.forEach((res, i) => expect(res.index).toBeGreaterThan(before[i]!.index));
    } finally {
      await second.stop();
    }
  });

  it("hash-blocks /v1/agent/service/:id until the service changes", async () => {
    await http.put("/v1/agent/service/register", { Name: "hashed", Port: 1 });
    const first = await http.get("/v1/agent/service/hashed");
    const hash = first.headers.get("X-Consul-ContentHash")!;
    expect((first.body as { ContentHash: string }).ContentHash).toBe(hash);
    const pending = http.get(`/v1/agent/service/hashed?hash=${hash}&wait=30s`);
    await until(() => parked() === 1);
    await http.put("/v1/agent/service/register", { Name: "hashed", Port: 2 });
    const changed = await pending;
    expect((changed.body as { Port: number }).Port).toBe(2);
    expect(changed.headers.get("X-Consul-ContentHash")).not.toBe(hash);
  });
});
