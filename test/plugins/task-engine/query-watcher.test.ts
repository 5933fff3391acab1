/** The shared watcher pool over the real consul-client against the embedded server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consulQuery, isPermanentConsulError, type ConsulQueryResult } from "../../../core/plugin-api/mod.ts";
import { createLogSink } from "../../../core/logging/log-sink.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createConsulClient, type ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { SharedQueryWatcher } from "../../../plugins/task-engine/src/query-watcher.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startCountingProxy, type CountingProxy } from "../../../harness/task-engine/counting-proxy.ts";
import { engineConfig, waitFor } from "../../../harness/task-engine/engine-harness.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;
let server: DevServer;
let proxy: CountingProxy;
let client: ClosableConsulClient;
const logs: string[] = [];

beforeAll(async () => {
  server = await startConsulDevServer();
  proxy = await startCountingProxy({ hostname: "127.0.0.1", port: server.port });
  client = await createConsulClient({
    http: createHttpClientFactory(),
    consul: engineConfig(proxy.address, []).consul,
    fs: createFileSystem(),
    logger: createLogSink({ level: "DEBUG", write: (line) => logs.push(line) }).logger("consul"),
  });
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await server?.stop();
});

const put = (key: string, value: string) => fetch(`${server.url}/v1/kv/${key}`, { method: "PUT", body: value }).then((r) => r.text());
const value = (result: ConsulQueryResult | undefined) =>
  Array.isArray(result?.data) ? atob((result.data as { Value: string }[])[0]!.Value) : undefined;

describe("SharedQueryWatcher", () => {
  it("opens one blocking query per key, serves late subscribers from cache, closes on the last unsubscribe", async () => {
    const watcher = new SharedQueryWatcher(client, createLogSink({ level: "ERROR", write: () => {} }).logger("w"));
    await put("wq/a", "1");
    const query = consulQuery("/v1/kv/wq/a");
    const seenA: ConsulQueryResult[] = [];
    const seenB: ConsulQueryResult[] = [];
    const offA = watcher.subscribe(query, (result) => seenA.push(result));
    await waitFor(() => seenA.length === 1, "first answer");
    const offB = watcher.subscribe(consulQuery("/v1/kv/wq/a"), (result) => seenB.push(result));
    await waitFor(() => seenB.length === 1, "cached answer for the late subscriber");
    expect(value(seenB[0])).toBe("1");
    expect(watcher.stats()).toEqual({ open: 1, subscribers: 2 });

    await put("wq/a", "2");
    await waitFor(() => seenA.length === 2 && seenB.length === 2, "both see the change");
    expect(value(seenA[1])).toBe("2");
    expect(proxy.maxInFlight("/v1/kv/wq/a")).toBe(1);

    const other = watcher.subscribe(consulQuery("/v1/kv/wq/b"), () => {});
    expect(watcher.stats().open).toBe(2);
    other();
    offA();
    expect(watcher.stats()).toEqual({ open: 1, subscribers: 1 });
    offB();
    offB();
    expect(watcher.stats()).toEqual({ open: 0, subscribers: 0 });
    watcher.close();
  });

  it("tells every subscriber of a query Consul rejects, late ones at once, over one blocking query", async () => {
    // Issue 10 item 4: an unknown datacenter is a permanent error of the query, not an outage.
    const watcher = new SharedQueryWatcher(client, createLogSink({ level: "ERROR", write: () => {} }).logger("w"));
    const query = consulQuery("/v1/kv/wq/dc", { dc: "dc9" });
    const errorsA: Error[] = [];
    const errorsB: Error[] = [];
    const offA = watcher.subscribe(query, () => {}, (error) => errorsA.push(error));
    await waitFor(() => errorsA.length === 1, "the first subscriber hears the rejection");
    const offB = watcher.subscribe(query, () => {}, (error) => errorsB.push(error));
    await waitFor(() => errorsB.length === 1, "the late subscriber hears it at once");
    expect(errorsB[0]!.message).toBe("Cannot query /v1/kv/wq/dc?dc=dc9: Unexpected response code: 500 No path to datacenter");
    expect(isPermanentConsulError(errorsB[0])).toBe(true);
    expect(errorsA).toHaveLength(1);
    expect(watcher.stats()).toEqual({ open: 1, subscribers: 2 });
    offA();
    offB();
    expect(watcher.stats().open).toBe(0);
  });
});
