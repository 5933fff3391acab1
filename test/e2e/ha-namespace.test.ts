/**
 * Issue 26, item 3: `high_availability.cluster.storage "consul" { namespace }` reaches Consul. A real
 * daemon (`node dist/main.js start`) leads a cluster through a recording proxy in front of the embedded
 * Consul; the proxy records each request's `ns` and forwards it without (the embedded Consul refuses
 * namespaces as Consul CE does). Every KV, session and transaction call carries the namespace, from
 * the first lock attempt through the lock moved onto the check-bound session and back on SIGTERM;
 * agent and health calls do not.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot } from "../../harness/run-cli.ts";
import { freePort } from "../../harness/free-port.ts";
import { until } from "../../harness/until.ts";
import { HaInstance, waitForLeader } from "../../harness/ha-consul/ha-cluster.ts";
import { type RecordingProxy, startRecordingProxy } from "../../harness/ha-consul/recording-proxy.ts";

const stubModule = join(repoRoot, "test", "plugins", "driver-terraform", "modules", "stub");
let consul: TestConsulDevServer;
let proxy: RecordingProxy;
let dir: string;
let instance: HaInstance;

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port }, { stripNamespace: true });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-ns-"));
  instance = new HaInstance({
    consulAddress: proxy.address,
    cluster: "ns-cluster",
    dir,
    sessionTtl: "10s",
    // The lock moves onto the check-bound session (a transaction) once the check has run: soon with 1s.
    checkInterval: "1s",
    checkTimeout: "1s",
    storageHcl: `namespace = "team-a"`,
    driverHcl: "",
    tasksHcl: `task {\n  name   = "web"\n  module = ${JSON.stringify(stubModule)}\n  condition "services" {\n    names = ["web"]\n  }\n}\n`,
  }, "ns-cluster-1", await freePort());
});

afterAll(async () => {
  await instance?.kill("SIGKILL");
  await proxy?.close();
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("HA storage namespace", () => {
  it("is sent on every KV, session and transaction call, and on no other call", async () => {
    instance.start("-client-type=development");
    await waitForLeader([instance]);
    await until("the lock moved onto the check-bound session", () => (proxy.exchanges.some((e) => e.path === "/v1/txn") ? true : undefined), 30_000);
    expect(await instance.kill("SIGTERM"), instance.output).toBe(0);

    const storage = proxy.exchanges.filter((exchange) => /^\/v1\/(kv\/|session\/|txn$)/.test(exchange.path));
    const kinds = new Set(storage.map((exchange) => exchange.path.split("/")[2]));
    expect([...kinds].sort(), instance.output).toEqual(["kv", "session", "txn"]);
    expect(storage.filter((exchange) => exchange.query.get("ns") !== "team-a").map((e) => `${e.method} ${e.path}`)).toEqual([]);
    // The cluster's own keys were written (through the proxy, without ns) and the lock handed over.
    expect(storage.some((e) => e.method === "PUT" && e.path === "/v1/kv/consul-terraform-sync/ns-cluster/leader" && e.query.has("acquire"))).toBe(true);

    const others = proxy.exchanges.filter((exchange) => !storage.includes(exchange));
    expect(others.some((e) => e.path.startsWith("/v1/agent/service/register"))).toBe(true);
    expect(others.filter((exchange) => exchange.query.has("ns")).map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });
});
