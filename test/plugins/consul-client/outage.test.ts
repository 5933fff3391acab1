/**
 * Chaos: the Consul server goes away and comes back while the client watches. The client must
 * recover by itself (no restart), log the outage once, and see every change made after recovery.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { consulQuery } from "../../../core/plugin-api/mod.ts";
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import type { CaptureLogger } from "../../../harness/consul-client/capture-logger.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { collectWatch, until } from "./watch-collector.ts";

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(): Promise<{ server: DevServer; client: ClosableConsulClient; logger: CaptureLogger; snapshotPath: string }> {
  // Our own snapshot path, so the data survives stop() (restart() alone gives no outage window).
  const dir = mkdtempSync(join(tmpdir(), "cts-consul-client-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const snapshotPath = join(dir, "snapshot.json");
  const server = await startConsulDevServer({ snapshotPath });
  cleanups.push(() => server.stop());
  const { client, logger } = await testClient(server.address);
  cleanups.push(() => client.close());
  return { server, client, logger, snapshotPath };
}

function watchFor(client: ClosableConsulClient, path: string, params: Record<string, string> = {}) {
  const collector = collectWatch();
  const stop = new AbortController();
  const done = client.watch(consulQuery(path, params), collector.onResult, stop.signal);
  cleanups.push(async () => {
    stop.abort();
    await done;
  });
  return collector;
}

const kvValue = (data: unknown): string | undefined => {
  const entry = (data as { Value: string | null }[] | undefined)?.[0];
  return entry ? atob(entry.Value ?? "") : undefined;
};
const serviceIds = (data: unknown): string[] =>
  ((data as { Service: { ID: string } }[] | undefined) ?? []).map((entry) => entry.Service.ID).sort();

describe("consul client outage handling", () => {
  it("rides out a server restart (same snapshot, same port) and sees every later change", async () => {
    const { server, client, logger, snapshotPath } = await setUp();
    await client.kvPut("chaos/key", "before");
    await client.registerService({ ID: "web-1", Name: "web", Port: 80 });
    const kv = watchFor(client, "/v1/kv/chaos/key");
    const web = watchFor(client, "/v1/health/service/web", { passing: "true" });
    await kv.next((r) => kvValue(r.data) === "before");
    await web.next((r) => serviceIds(r.data).join() === "web-1");
    await until(() => server.state.hub.size >= 2); // both blocking queries are parked

    await server.stop();
    // Both watches notice: their blocking requests fail and they start retrying.
    await until(() => !client.connectionState().healthy && client.connectionState().failures >= 2);
    expect(client.connectionState().lastError).toMatch(/^Cannot query /);
    const again = await startConsulDevServer({ port: server.port, snapshotPath });
    cleanups.push(() => again.stop());

    const kvMark = kv.results.length;
    const webMark = web.results.length;
    // Changes made after recovery, in several steps: each must be seen.
    await client.kvPut("chaos/key", "after-1");
    await kv.next((r) => kvValue(r.data) === "after-1", kvMark);
    await client.registerService({ ID: "web-2", Name: "web", Port: 81 });
    await web.next((r) => serviceIds(r.data).join() === "web-1,web-2", webMark);
    await client.kvPut("chaos/key", "after-2");
    await kv.next((r) => kvValue(r.data) === "after-2", kvMark);
    await client.deregisterService("web-1");
    await web.next((r) => serviceIds(r.data).join() === "web-2", webMark);

    expect(client.connectionState().healthy).toBe(true);
    const outageLines = logger.lines.filter((l) => l.level === "WARN" || l.level === "INFO");
    expect(outageLines.map((l) => `${l.level} ${l.message}`)).toEqual([
      "WARN cannot reach Consul, retrying until it is back",
      "INFO connection to Consul restored",
    ]);
    expect(logger.lines.some((l) => l.level === "DEBUG" && l.message === "Consul still unreachable, retrying")).toBe(true);
    // Nothing stale was delivered after recovery: values only move forward.
    const afterValues = kv.results.slice(kvMark).map((r) => kvValue(r.data));
    expect(afterValues.filter((v) => v === "before").length).toBeLessThanOrEqual(1);
    expect(afterValues.at(-1)).toBe("after-2");
  });

  it("resyncs when a fresh server (no snapshot) takes over the port", async () => {
    const { server, client } = await setUp();
    await client.kvPut("fresh/key", "old");
    const kv = watchFor(client, "/v1/kv/fresh/key");
    const first = await kv.next((r) => kvValue(r.data) === "old");
    await until(() => server.state.hub.size >= 1);
    await server.stop();
    const fresh = await startConsulDevServer({ port: server.port });
    cleanups.push(() => fresh.stop());
    // The fresh server has no such key: the watch must report it gone, whatever its index.
    const gone = await kv.next((r) => r.data === undefined);
    // The dev server seeds indexes from its start clock, so even a fresh one never moves backwards.
    expect(gone.index).toBeGreaterThan(first.index);

    // A caller still holding the old index gets the fresh server's state at once, neither an error
    // nor a hang. (An index that really goes backwards is covered against the scripted server.)
    const reset = await client.query(consulQuery("/v1/kv/fresh/key"), { index: first.index, wait: "100ms" });
    expect(reset).toEqual({ data: undefined, index: gone.index });

    await client.kvPut("fresh/key", "new");
    await kv.next((r) => kvValue(r.data) === "new");
  });
});
