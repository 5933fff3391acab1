/**
 * Conformance: the npm `consul` 2.0.1 client (not written here) against the dev server —
 * KV (with "/" in keys, which it percent-encodes), sessions and locks, health, blocking reads and a watch.
 */
import { EventEmitter } from "node:events";
import Consul from "consul";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";

let server: TestConsulDevServer;
let consul: Consul;

beforeAll(async () => {
  server = await startConsulDevServer();
  consul = new Consul({ host: "127.0.0.1", port: server.port });
});

afterAll(async () => {
  consul.destroy();
  await server.stop();
});

// The client's .d.ts lacks index/wait/ctx; they are real runtime options (papi).
type Loose = Record<string, unknown>;
const kvGet = (options: Loose) => (consul.kv.get as (o: Loose) => Promise<unknown>)(options);

describe("npm consul 2.0.1 against the dev server", () => {
  it("sets, reads, lists and deletes keys, including keys with slashes", async () => {
    expect(await consul.kv.set("npm/app/a", "1")).toBe(true);
    expect(await consul.kv.set({ key: "npm/app/b/c", value: "2", flags: 42 } as never)).toBe(true);
    const one = await consul.kv.get("npm/app/a") as { Value: string; Key: string };
    expect(one.Value).toBe("1");
    expect(one.Key).toBe("npm/app/a");
    const nested = await consul.kv.get("npm/app/b/c") as { Flags: number };
    expect(nested.Flags).toBe(42);
    expect(await consul.kv.keys({ key: "npm/app/", separator: "/" } as never)).toEqual(["npm/app/a", "npm/app/b/"]);
    const all = await consul.kv.get({ key: "npm/app/", recurse: true }) as { Key: string }[];
    expect(all.map((e) => e.Key)).toEqual(["npm/app/a", "npm/app/b/c"]);
    expect(await consul.kv.get("npm/missing")).toBeUndefined();
    await consul.kv.del({ key: "npm/app/", recurse: true } as never);
    expect(await consul.kv.get({ key: "npm/app/", recurse: true })).toBeUndefined();
  });

  it("supports check-and-set", async () => {
    expect(await consul.kv.set({ key: "npm/cas", value: "a", cas: 0 } as never)).toBe(true);
    // The client turns a JSON `false` body into undefined; only truthiness is meaningful.
    expect(await consul.kv.set({ key: "npm/cas", value: "b", cas: 0 } as never)).toBeFalsy();
    const entry = await consul.kv.get("npm/cas") as { ModifyIndex: number };
    expect(await consul.kv.set({ key: "npm/cas", value: "c", cas: entry.ModifyIndex } as never)).toBe(true);
    expect(await consul.kv.set({ key: "npm/cas", value: "d", cas: entry.ModifyIndex } as never)).toBeFalsy();
    expect((await consul.kv.get("npm/cas") as { Value: string }).Value).toBe("c");
  });

  it("creates sessions, locks a key, and releases it on destroy", async () => {
    const { ID: first } = await consul.session.create({ name: "npm-a", ttl: "30s", lockdelay: "0s" } as never);
    const { ID: second } = await consul.session.create({ name: "npm-b", lockdelay: "0s" } as never);
    expect(await consul.kv.set({ key: "npm/lock", value: "me", acquire: first } as never)).toBe(true);
    expect(await consul.kv.set({ key: "npm/lock", value: "you", acquire: second } as never)).toBeFalsy();
    const info = await consul.session.info(first) as { Name: string; TTL: string; LockDelay: number };
    expect(info).toMatchObject({ Name: "npm-a", TTL: "30s", LockDelay: 0 });
    const renewed = await consul.session.renew(first) as { ID: string }[];
    expect(renewed[0]!.ID).toBe(first);
    expect((await consul.session.list() as { ID: string }[]).map((s) => s.ID)).toEqual(expect.arrayContaining([first, second]));
    await consul.session.destroy(first);
    const after = await consul.kv.get("npm/lock") as { Session?: string; Value: string };
    expect(after.Session).toBeUndefined();
    expect(after.Value).toBe("me");
    expect(await consul.kv.set({ key: "npm/lock", value: "you", acquire: second } as never)).toBe(true);
    await consul.session.destroy(second);
    await expect(consul.session.renew(first)).rejects.toMatchObject({ statusCode: 404 });
  });

  it("registers a service with a TTL check and reports health", async () => {
    await consul.agent.service.register({
      name: "npm-web", id: "npm-web-1", port: 8080, tags: ["v1"], check: { ttl: "30s" },
    } as never);
    const critical = await consul.health.service({ service: "npm-web", passing: true } as never) as unknown[];
    expect(critical).toEqual([]);
    await consul.agent.check.pass("service:npm-web-1");
    const passing = await consul.health.service({ service: "npm-web", passing: true } as never) as {
      Service: { ID: string; Tags: string[] }; Checks: { CheckID: string; Status: string }[];
    }[];
    expect(passing).toHaveLength(1);
    expect(passing[0]!.Service).toMatchObject({ ID: "npm-web-1", Tags: ["v1"] });
    expect(passing[0]!.Checks.map((c) => c.CheckID).sort()).toEqual(["serfHealth", "service:npm-web-1"]);
    const services = await consul.catalog.service.list() as Record<string, string[]>;
    expect(services["npm-web"]).toEqual(["v1"]);
    await consul.agent.service.deregister("npm-web-1");
    expect(await consul.health.service("npm-web")).toEqual([]);
  });

  it("blocks on an index until the key changes (EventEmitter ctx with includeResponse)", async () => {
    await consul.kv.set("npm/block", "v1");
    const ctx = Object.assign(new EventEmitter(), { includeResponse: true });
    const [first] = await kvGet({ key: "npm/block", ctx }) as [{ headers: Record<string, string> }];
    const index = first.headers["x-consul-index"]!;
    const pending = kvGet({ key: "npm/block", index, wait: "20s", ctx }) as Promise<[
      { headers: Record<string, string> }, { Value: string },
    ]>;
    await consul.kv.set("npm/block", "v2");
    const [res, data] = await pending;
    expect(data.Value).toBe("v2");
    expect(BigInt(res.headers["x-consul-index"]!)).toBeGreaterThan(BigInt(index));
  });

  it("watch() sees a change, including a key that starts missing", async () => {
    const watch = consul.watch({ method: consul.kv.get, options: { key: "npm/watched", wait: "20s" } as never });
    try {
      const seen: (string | undefined)[] = [];
      const done = new Promise<void>((resolve, reject) => {
        watch.on("error", reject);
        watch.on("change", (data: { Value: string } | undefined) => {
          seen.push(data?.Value);
          if (seen.length === 1) void consul.kv.set("npm/watched", "hello");
          if (data?.Value === "hello") resolve();
        });
      });
      await done;
      expect(seen).toEqual([undefined, "hello"]);
    } finally {
      watch.end();
    }
  });

  it("surfaces Consul's error texts", async () => {
    await expect(consul.session.create({ ttl: "1s" } as never)).rejects.toMatchObject({ statusCode: 500 });
    await expect(consul.health.service({ service: "x", filter: "Service.Port ==" } as never))
      .rejects.toMatchObject({ statusCode: 500 });
    await expect(consul.kv.get({ key: "x", dc: "elsewhere" } as never)).rejects.toThrow(/No path to datacenter/);
  });
});
