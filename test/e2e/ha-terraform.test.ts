/**
 * High availability with the real Terraform driver: two real processes (`node dist/main.js start`), the
 * demo module (terraform_data + local-exec, offline) and Terraform's state in the embedded Consul (the
 * default consul backend, which HA requires). A follower that takes over after `kill -9` reuses the
 * shared state: it does not re-apply unchanged inputs, and applies the next change on top of it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  currentLeaders, failover, type HaInstance, registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";
import { demoModule, demoStateLines, readServiceLines, readTerraformState } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const TTL_MS = 1000;

let consul: TestConsulDevServer;
let instances: HaInstance[] = [];
const tmp = tempDir("ha-terraform");
const outputFile = join(tmp.path, "tf-web.txt");

const lines = () => readServiceLines(tmp.path, "tf-web");
const outputs = () => instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-4000)}`).join("\n");

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  const tfvars = join(tmp.path, "tf-web.tfvars");
  writeFileSync(tfvars, `output_file = ${JSON.stringify(outputFile)}\n`);
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: "ha-tf",
    dir: tmp.path,
    sessionTtl: `${TTL_MS}ms`,
    driverHcl: "",
    tasksHcl: `task {
  name           = "tf-web"
  module         = ${JSON.stringify(demoModule)}
  variable_files = [${JSON.stringify(tfvars)}]
  condition "services" { names = ["web"] }
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

describe("HA with the Terraform driver", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("the leader applies; its state lands in Consul KV", async () => {
    const leader = await waitForLeader(instances);
    await until("the first apply", () => (JSON.stringify(lines()) === JSON.stringify(["web 10.0.0.1:80"]) ? true : undefined), 120_000);
    await until("the state in Consul", async () => (demoStateLines(await readTerraformState(consul.url, "tf-web")) ? true : undefined));
    expect(demoStateLines(await readTerraformState(consul.url, "tf-web"))).toEqual(["web 10.0.0.1:80"]);
    await until(`${leader.id} to log the run`, () => (/task completed: task_name=tf-web/.test(leader.output) ? true : undefined), 10_000);
    expect((await currentLeaders(instances)).length).toBe(1);
  }, 150_000);

  it("after kill -9 the follower leads on the shared state and applies the next change", async () => {
    const leader = await waitForLeader(instances);
    const serial = (await readTerraformState(consul.url, "tf-web"))!.serial;
    const { next } = await failover(instances, leader, "SIGKILL");
    await until(`${next.id}'s once-pass`, () => (next.output.includes("all tasks ran once; watching for changes") ? true : undefined), 120_000);
    // Unchanged inputs: no second apply, so the state's serial has not moved.
    expect(next.output).not.toMatch(/executing task: task_name=tf-web/);
    expect((await readTerraformState(consul.url, "tf-web"))!.serial).toBe(serial);

    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    await until("the change to be applied", () =>
      (JSON.stringify(lines()) === JSON.stringify(["web 10.0.0.1:80", "web 10.0.0.2:80"]) ? true : undefined), 120_000);
    await until("the new state", async () => ((await readTerraformState(consul.url, "tf-web"))!.serial > serial ? true : undefined));
    expect(demoStateLines(await readTerraformState(consul.url, "tf-web"))).toEqual(["web 10.0.0.1:80", "web 10.0.0.2:80"]);
    await until(`${next.id} to log the run`, () => (/task completed: task_name=tf-web/.test(next.output) ? true : undefined), 10_000);
  }, 180_000);
});
