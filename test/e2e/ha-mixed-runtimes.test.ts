/**
 * One HA cluster across both runtimes: a Node instance (`node dist/main.js start`) and a Deno instance
 * (`deno run -A main.ts start`) share the lock, the stored tasks and the recording driver's log, and
 * hand leadership back and forth (graceful one way, kill -9 the other).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, failover, HaInstance, overlappingApplies, readRecords, recordingDriverHcl,
  registerService, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";
import { freePort } from "../../harness/free-port.ts";

let consul: TestConsulDevServer;
let dir: string;
let records: string;
let onNode: HaInstance;
let onDeno: HaInstance;

const applied = (address: string) => readRecords(records).some((entry) => entry.op === "apply" &&
  Object.values(entry.input?.services ?? {}).some((service) => service.address === address));

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-mixed-"));
  records = join(dir, "records.jsonl");
  await registerService(consul.url, "web-1", "web", "10.2.0.1");
  const spec = {
    consulAddress: consul.address,
    cluster: "ha-mixed",
    dir,
    sessionTtl: "1s",
    driverHcl: recordingDriverHcl(await bundleRecordingDriver(dir), records, 100),
    tasksHcl: `task {\n  name   = "mixed-web"\n  module = "./mod"\n  condition "services" { names = ["web"] }\n}\n`,
  };
  onNode = new HaInstance(spec, "ha-mixed-node", await freePort());
  onDeno = new HaInstance(spec, "ha-mixed-deno", await freePort());
  onDeno.runtime = "deno";
}, 60_000);

afterAll(async () => {
  await stopCluster([onNode, onDeno].filter(Boolean));
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("HA across Node and Deno", () => {
  beforeEach(() => onTestFailed(() => console.log(`--- node\n${onNode.output}\n--- deno\n${onDeno.output}`)));

  it("Node leads, hands over to Deno on SIGTERM, Deno applies the next change", async () => {
    onNode.start();
    expect(await waitForLeader([onNode])).toBe(onNode);
    onDeno.start();
    await until("the Deno instance to serve", async () => ((await onDeno.api("GET", "/v1/health"))?.status === 200 ? true : undefined));
    const { next } = await failover([onNode, onDeno], onNode, "SIGTERM");
    expect(next).toBe(onDeno);
    await registerService(consul.url, "web-2", "web", "10.2.0.2");
    await until("Deno to apply 10.2.0.2", () => (applied("10.2.0.2") ? true : undefined));
    expect(readRecords(records).filter((entry) => entry.op === "apply").map((entry) => entry.instance))
      .toEqual(["ha-mixed-node", "ha-mixed-deno"]);
  }, 90_000);

  it("Deno is killed with -9; Node takes over and applies the next change", async () => {
    onNode.start();
    await until("the Node instance to serve", async () => ((await onNode.api("GET", "/v1/health"))?.status === 200 ? true : undefined));
    const { next } = await failover([onNode, onDeno], onDeno, "SIGKILL");
    expect(next).toBe(onNode);
    await registerService(consul.url, "web-3", "web", "10.2.0.3");
    await until("Node to apply 10.2.0.3", () => (applied("10.2.0.3") ? true : undefined));
    expect(overlappingApplies(readRecords(records))).toEqual([]);
  }, 90_000);
});
