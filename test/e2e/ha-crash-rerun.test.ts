/**
 * A run cut short by a crash never counts as a success: a real HA instance (`deno run -A main.ts start`,
 * state in the embedded Consul's KV) is killed with -9 in the middle of an apply, the inputs go back to
 * those of its last successful apply, and the restarted instance applies again instead of skipping.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { repoRoot } from "../../harness/run-cli.ts";
import {
  HaInstance, readRecords, recordingDriverHcl, registerService, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";

const CLUSTER = "ha-crash";
const TASK = "crash-web";

let consul: TestConsulDevServer;
let dir: string;
let records: string;
let instance: HaInstance;

const applies = () => readRecords(records).filter((entry) => entry.op === "apply" && entry.task === TASK);
const ids = (entry: { input?: { services?: Record<string, { id: string }> } }) =>
  Object.values(entry.input?.services ?? {}).map((service) => service.id).sort();

async function storedRun(): Promise<{ fingerprint: string; state: string } | undefined> {
  const response = await fetch(`${consul.url}/v1/kv/consul-terraform-sync/${CLUSTER}/tasks/${TASK}?raw`);
  if (!response.ok) return undefined;
  return (JSON.parse(await response.text()) as { lastRun?: { fingerprint: string; state: string } }).lastRun;
}

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-crash-"));
  records = join(dir, "records.jsonl");
  await registerService(consul.url, "web-1", "web", "10.3.0.1");
  const driverPlugin = join(repoRoot, "harness/driver-recording/mod.ts");
  instance = new HaInstance({
    consulAddress: consul.address,
    cluster: CLUSTER,
    dir,
    sessionTtl: "1s",
    // Long enough to kill the process while the apply of the change is certainly in progress.
    driverHcl: recordingDriverHcl(driverPlugin, records, 2500),
    tasksHcl: `task {\n  name   = "${TASK}"\n  module = "./mod"\n  condition "services" { names = ["web"] }\n}\n`,
  }, `${CLUSTER}-1`, await freePort());
  instance.runtime = "deno";
}, 60_000);

afterAll(async () => {
  if (instance) await stopCluster([instance]);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a crash in the middle of an apply", () => {
  beforeEach(() => onTestFailed(() => console.log(instance.output.slice(-6000))));

  it("is stored as a started run, and the restarted leader applies again although the inputs are back to the last success", async () => {
    instance.start();
    await waitForLeader([instance]);
    await until("the start-up apply", () => (applies()[0]?.ok ? true : undefined), 60_000);
    await until("the start-up run stored as succeeded", async () => ((await storedRun())?.state === "succeeded" ? true : undefined), 10_000);
    const succeeded = (await storedRun())!.fingerprint;

    await registerService(consul.url, "web-2", "web", "10.3.0.2");
    await until("the apply of the change to start", () => (/executing task: .*trigger=dependency/.test(instance.output) ? true : undefined), 30_000);
    await until("the started run to be stored", async () => ((await storedRun())?.state === "started" ? true : undefined), 10_000);
    await instance.kill("SIGKILL");
    // The apply never finished: the driver never recorded it, and the store says it only started.
    expect(applies().length).toBe(1);
    expect(await storedRun()).toEqual({ fingerprint: expect.not.stringMatching(succeeded), state: "started" });

    const response = await fetch(`${consul.url}/v1/agent/service/deregister/web-2`, { method: "PUT" });
    expect(response.ok).toBe(true);
    const outputBefore = instance.output.length;
    instance.start();
    await waitForLeader([instance]);
    // Issue 11 item 3: the inputs equal the last successful apply's, but the last run did not complete.
    await until("the restarted leader's apply", () => (applies()[1]?.ok ? true : undefined), 60_000);
    expect(ids(applies()[1]!)).toEqual([expect.stringMatching(/^web-1/)]);
    const restarted = instance.output.slice(outputBefore);
    expect(restarted).not.toContain("apply skipped");
    await until("the run stored as succeeded", async () => ((await storedRun())?.state === "succeeded" ? true : undefined), 10_000);
    expect((await storedRun())!.fingerprint).toBe(succeeded);
  }, 150_000);
});
