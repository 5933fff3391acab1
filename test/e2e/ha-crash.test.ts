/**
 * High availability when the leader's host dies in the middle of an apply (issue 11): the leader and
 * its terraform are SIGKILLed together, so terraform's state lock in Consul stays held until Consul
 * drops terraform's session (15 s TTL, expired within 2×TTL). The follower that takes over waits for
 * that dead leader's lock (driver "terraform" lock_timeout) and its run of the task succeeds. Before,
 * its start-up run failed at once ("failed to lock state in Consul") and the task was left unapplied.
 * Real processes (`node dist/main.js start`), the embedded Consul, the real terraform.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  type HaInstance, registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";
import { markerFile, processesUnder, slowModule, startedApplies } from "../../harness/driver-terraform/crash-support.ts";
import { readServiceLines } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const task = "ha-slow";
let consul: TestConsulDevServer;
let instances: HaInstance[] = [];
const tmp = tempDir("ha-crash");
const tfvars = join(tmp.path, `${task}.tfvars`);
/** While this file exists the module's apply waits: the leader's apply is still running when it is killed. */
const holdFile = join(tmp.path, "hold");

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  await registerService(consul.url, "ha-slow-1", "ha-slow-web", "10.2.0.1");
  writeFileSync(holdFile, "");
  writeFileSync(tfvars, `output_file = ${JSON.stringify(join(tmp.path, `${task}.txt`))}
hold_file   = ${JSON.stringify(holdFile)}
marker_file = ${JSON.stringify(markerFile(tmp.path, task))}
`);
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: "ha-lock",
    dir: tmp.path,
    sessionTtl: "1s",
    driverHcl: "",
    tasksHcl: `task {
  name           = "${task}"
  module         = ${JSON.stringify(slowModule)}
  variable_files = [${JSON.stringify(tfvars)}]
  condition "services" { names = ["ha-slow-web"] }
}
`,
    env: terraformTestEnv(),
  }, 2);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  tmp.remove();
});

describe("HA: the leader's host dies during an apply", () => {
  it("the new leader waits for the dead leader's state lock, then its run of the task succeeds", async () => {
    onTestFailed(() => console.log(instances.map((i) => `--- ${i.id}\n${i.output.slice(-6000)}`).join("\n")));
    const leader = await waitForLeader(instances);
    await until("the leader's apply to start", () => (startedApplies(tmp.path, task) >= 1 ? true : undefined), 120_000);
    // A host crash: the daemon and its terraform die at the same instant, nobody releases the lock.
    const terraform = processesUnder(join(leader.dir, "sync-tasks"));
    expect(terraform.some((p) => /terraform apply/.test(p.command))).toBe(true);
    for (const { pid } of terraform) killIfAlive(pid);
    await leader.kill("SIGKILL");
    const lock = await (await fetch(`${consul.url}/v1/kv/consul-terraform-sync/terraform-env:${task}/.lock`)).json() as { Session?: string }[];
    expect(lock[0]?.Session).toBeTruthy();
    rmSync(holdFile);

    const next = await waitForLeader(instances.filter((instance) => instance !== leader));
    await until(`${next.id} to wait for the lock`, () => (/the Terraform state is locked, waiting for it: task_name=ha-slow/.test(next.output) ? true : undefined));
    await until(`${next.id}'s run of the task`, () => (/task completed: task_name=ha-slow/.test(next.output) ? true : undefined), 120_000);
    expect(readServiceLines(tmp.path, task)).toEqual(["ha-slow-web 10.2.0.1:80"]);
    expect(next.output).not.toMatch(/task failed in the start-up run/);
  }, 200_000);
});

/** One kill can take others with it (the supervisor ends terraform's group), so a pid may be gone already. */
function killIfAlive(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
