/**
 * High availability with the terraform-cloud driver: three real processes, the embedded Consul for
 * the lock and the task store, the embedded HCP Terraform server for runs and state. After `kill -9`
 * of the leader, the new leader queues no run for a task whose inputs did not change and exactly one
 * for a task whose inputs changed during the failover (CTS's new leader queues one run per task).
 * Operators see CTS's own lines, levels and fields (ha-log-lines.md) on leader, followers and new leader.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  type HaInstance, registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../../harness/ha-consul/ha-cluster.ts";
import { tempDir } from "../../../harness/driver-terraform/terraform-env.ts";
import { runsOf, stateIds, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

let consul: TestConsulDevServer;
let tfc: TfcDevServer;
let instances: HaInstance[] = [];
const tmp = tempDir("ha-tfc");
const module = writeModule();
const outputs = () => instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-4000)}`).join("\n");

async function applied(task: string): Promise<string[] | undefined> {
  const ws = await workspace(tfc, `ha-${task}`);
  return ws ? await stateIds(tfc, ws.id) : undefined;
}
async function runCount(task: string): Promise<number> {
  return (await runsOf(tfc, (await workspace(tfc, `ha-${task}`)).id)).length;
}

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  tfc = await startTfcDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  await registerService(consul.url, "api-1", "api", "10.0.1.1");
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: "ha-tfc",
    dir: tmp.path,
    sessionTtl: "1000ms",
    driverHcl: `driver "terraform-cloud" {
  hostname     = "${tfc.url}"
  organization = "${tfc.organization}"
  workspaces {
    prefix = "ha-"
  }
}`,
    tasksHcl: ["web", "api"].map((name) => `task {
  name   = "${name}"
  module = ${JSON.stringify(module.dir)}
  condition "services" { names = ["${name}"] }
}
`).join("\n"),
    env: { TFC_TOKEN: tfc.token },
  }, 3);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  await tfc?.stop();
  module.remove();
  tmp.remove();
});

describe("HA with the terraform-cloud driver", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("the new leader after kill -9 queues no run for an unchanged task and one for a changed one", async () => {
    const leader = await waitForLeader(instances);
    await until("both first applies", async () =>
      JSON.stringify([await applied("web"), await applied("api")]) === JSON.stringify([["web-1"], ["api-1"]]) ? true : undefined, 120_000);
    const webRuns = await runCount("web");
    const apiRuns = await runCount("api");

    const killed = leader.kill("SIGKILL");
    // The change lands while nobody leads.
    await registerService(consul.url, "api-2", "api", "10.0.1.2");
    await killed;
    const next = await waitForLeader(instances.filter((instance) => instance !== leader));
    await until("the changed task applied by the new leader", async () =>
      JSON.stringify(await applied("api")) === JSON.stringify(["api-1", "api-2"]) ? true : undefined, 120_000);
    await until(`${next.id}'s once-pass`, () => (next.output.includes("all tasks ran once; watching for changes") ? true : undefined), 120_000);
    expect(await runCount("web")).toBe(webRuns);
    expect(await runCount("api")).toBe(apiRuns + 1);

    // CTS's lines (ha-log-lines.md), each instance from its start: every one tries the lock...
    const lockPath = "lock_path=consul-terraform-sync/ha-tfc/leader";
    for (const instance of instances) expect(instance.output).toMatch(new RegExp(`\\[INFO\\]  ha: attempting to acquire leadership lock: ${lockPath}`));
    // ...the first leader acquires it and runs every task once through...
    expect(leader.output).toMatch(new RegExp(`\\[INFO\\]  ha: acquired leadership lock: id=${leader.id}\\b[^]*\\[INFO\\]  ctrl: executing all tasks once through\\n`));
    // ...a follower never says "acquired" (that is how operators tell them apart)...
    const follower = instances.find((instance) => instance !== leader && instance !== next)!;
    expect(follower.output).not.toContain("acquired leadership lock");
    // ...and the new leader, after taking over, runs each task once; the changed one with the driver's
    // start-up lines (an unchanged one uploads nothing: its apply is skipped).
    expect(next.output).toMatch(new RegExp(
      `\\[INFO\\]  ha: acquired leadership lock: id=${next.id}\\b[^]*` +
      `\\[INFO\\]  ctrl: executing all tasks once through\\n[^]*` +
      `\\[INFO\\]  ctrl: running task once: task_name=api\\n[^]*` +
      `\\[INFO\\]  driver\\.terraform: retrieved 0 Terraform handlers for task: task_name=api\\n[^]*` +
      `\\[INFO\\]  driver\\.tfc: uploading new configuration version for workspace: workspace_name=ha-api task_name=api\\n[^]*` +
      `\\[INFO\\]  driver\\.tfc: uploaded new configuration version for workspace: config_version_id=cv-\\w+ workspace_name=ha-api task_name=api\\n`,
    ));
  }, 240_000);
});
