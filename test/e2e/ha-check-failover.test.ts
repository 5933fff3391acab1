/**
 * Crash failover bound to the instance's own health check (issue 16, item 3), with real processes
 * (`node dist/main.js start`), the embedded Consul (which really runs the HTTP check every interval)
 * and the recording driver. session_ttl is 60 s: Consul cannot expire a session before its TTL, so a
 * failover that happens at all before 60 s was caused by the health check, not by the TTL backstop.
 * The failover figures themselves are measured by bench/ha-failover.ts.
 *
 * CTS behaviour kept: the registration check is CTS's default check on /v1/health (here with a 1 s
 * interval through the `default_check.interval` knob); a graceful stop drains running applies before
 * another instance leads.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, failover, type HaInstance, leaderLockChecks, overlappingApplies, readRecords, recordingDriverHcl, registerService,
  startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";

const CLUSTER = "ha-check";
const TTL_MS = 60_000;
let consul: TestConsulDevServer;
let dir: string;
let instances: HaInstance[] = [];
let recordFile: string;

const outputs = () => instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-3000)}`).join("\n");

const lockBoundTo = () => leaderLockChecks(consul.url, CLUSTER);

beforeAll(async () => {
  consul = await startConsulDevServer();
  dir = mkdtempSync(join(tmpdir(), "cts-ha-check-"));
  recordFile = join(dir, "records.jsonl");
  const bundle = await bundleRecordingDriver(dir);
  await registerService(consul.url, "web-0", "web", "10.3.0.1");
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: CLUSTER,
    dir,
    sessionTtl: `${TTL_MS / 1000}s`,
    checkInterval: "1s",
    checkTimeout: "1s",
    driverHcl: recordingDriverHcl(bundle, recordFile, 2000),
    tasksHcl: `task {
  name   = "rec-web"
  module = "./mod"
  condition "services" { names = ["web"] }
}
`,
  }, 3);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("HA crash failover bound to the health check", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("after kill -9 of the leader a follower leads and runs the task before the 60 s TTL could have released the lock", async () => {
    const leader = await waitForLeader(instances);
    await until("the leader's lock on a session bound to its check", async () =>
      ((await lockBoundTo()).includes(`${leader.id}-health`) ? true : undefined), 30_000);
    const { next, ms } = await failover(instances, leader, "SIGKILL", TTL_MS);
    expect(ms).toBeLessThan(TTL_MS);
    await until(`${next.id}'s pass over the task`, () => (/all tasks ran once; watching for changes/.test(next.output) ? true : undefined), 20_000);
    leader.start();
  }, 120_000);

  it("a graceful stop during an apply keeps the lock until the apply ended (the bound check failing does not hand it over early)", async () => {
    const leader = await waitForLeader(instances);
    await until("the leader's lock on a session bound to its check", async () =>
      ((await lockBoundTo()).includes(`${leader.id}-health`) ? true : undefined), 30_000);
    await registerService(consul.url, "web-1", "web", "10.3.0.2");
    // The render record is written before the 2 s apply starts: the apply is running when the signal comes.
    await until("the leader rendering the change", () => readRecords(recordFile).some((entry) =>
      entry.op === "render" && entry.instance === leader.id &&
      Object.values(entry.input?.services ?? {}).some((service) => service.address === "10.3.0.2")) ? true : undefined);
    const { next } = await failover(instances, leader, "SIGTERM", TTL_MS);
    await until(`${next.id}'s pass over the task`, () => (/all tasks ran once; watching for changes/.test(next.output) ? true : undefined), 20_000);
    expect(readRecords(recordFile).some((entry) => entry.op === "apply" && entry.instance === leader.id &&
      Object.values(entry.input?.services ?? {}).some((service) => service.address === "10.3.0.2"))).toBe(true);
    expect(overlappingApplies(readRecords(recordFile))).toEqual([]);
  }, 120_000);
});
