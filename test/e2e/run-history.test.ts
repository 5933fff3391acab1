/**
 * The run history end to end (issue 14, beyond CTS): two real `node dist/main.js start` processes in
 * an HA cluster on the embedded Consul, the real Terraform (an offline module), state and history in
 * Consul KV. Registrations, a changed address, a deregistration and KV writes each yield a record that
 * lists exactly that change; new Consul data that renders the same yields a skipped record; the API
 * pages newest first; after `kill -9` of the leader the new leader serves the same history.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { failover, type HaInstance, registerService, startCluster, stopCluster, until, waitForLeader } from "../../harness/ha-consul/ha-cluster.ts";
import { deregisterService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("run-history");
let consul: TestConsulDevServer;
let instances: HaInstance[] = [];
const outputs = () => instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-4000)}`).join("\n");

/** Offline: one terraform_data that changes with the ids and keys it is given. */
const MODULE = `
variable "services" {
  type = any
}
variable "consul_kv" {
  type    = map(string)
  default = {}
}
resource "terraform_data" "seen" {
  input = jsonencode({ services = sort(keys(var.services)), keys = sort(keys(var.consul_kv)) })
}
`;

async function putKv(key: string, value: string, flags = 0): Promise<void> {
  const response = await fetch(`${consul.url}/v1/kv/${key}?flags=${flags}`, { method: "PUT", body: value });
  expect(response.ok).toBe(true);
}

async function runsOf(instance: HaInstance, task: string): Promise<RunRecord[]> {
  const answer = await instance.api("GET", `/v1/tasks/${task}/runs?limit=100`);
  expect(answer?.status, JSON.stringify(answer?.json)).toBe(200);
  return answer!.json.runs as RunRecord[];
}

/** Waits for the task's record count to reach `count` with the newest ended (a run in progress is listed first), and returns it. */
async function nthRun(instance: HaInstance, task: string, count: number): Promise<RunRecord> {
  const runs = await until(`${task}'s run #${count}`, async () => {
    // A new leader answers before its start-up pass has loaded the tasks: 404 until then.
    const answer = await instance.api("GET", `/v1/tasks/${task}/runs?limit=100`);
    const list = answer?.status === 200 ? answer.json.runs as RunRecord[] : [];
    return list.length >= count && list[0]!.outcome !== "running" ? list : undefined;
  }, 90_000, 100);
  expect(runs).toHaveLength(count);
  return runs[0]!;
}

const byPrefix = (ids: readonly string[]) => ids.map((id) => id.split(".")[0]);

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  await registerService(consul.url, "web-2", "web", "10.0.0.2");
  await putKv("app/config/a", "1");
  const module = join(tmp.path, "module");
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, "main.tf"), MODULE);
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: "hist",
    dir: tmp.path,
    sessionTtl: "1000ms",
    driverHcl: "",
    tasksHcl: `task {
  name   = "hist-web"
  module = ${JSON.stringify(module)}
  condition "services" { names = ["web"] }
}
task {
  name   = "hist-kv"
  module = ${JSON.stringify(module)}
  condition "consul-kv" {
    path                = "app/config/"
    recurse             = true
    use_as_module_input = true
  }
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

describe("run history with the daemon, Terraform and HA", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("records each run with exactly the change that caused it, the plan counts, and skipped triggers", async () => {
    const leader = await waitForLeader(instances);
    const first = await nthRun(leader, "hist-web", 1);
    expect(first).toMatchObject({ task: "hist-web", outcome: "applied", trigger: { kind: "leader" }, instance_id: leader.id });
    expect(first.change.first).toBe(true);
    expect(byPrefix(first.change.services!.added)).toEqual(["web-1", "web-2"]);
    expect(first.plan).toEqual({ add: 1, change: 0, destroy: 0 });

    await registerService(consul.url, "web-3", "web", "10.0.0.3");
    const added = await nthRun(leader, "hist-web", 2);
    expect(added.trigger.kind).toBe("dependency");
    expect(byPrefix(added.change.services!.added)).toEqual(["web-3"]);
    expect(added.change.services!.removed).toEqual([]);
    expect(added.change.services!.changed).toEqual([]);
    expect(added.change.first).toBeUndefined();
    // terraform_data's input changed in place.
    expect(added.plan).toEqual({ add: 0, change: 1, destroy: 0 });

    await registerService(consul.url, "web-2", "web", "10.0.0.22");
    const changed = await nthRun(leader, "hist-web", 3);
    expect(changed.change.services!.added).toEqual([]);
    expect(changed.change.services!.removed).toEqual([]);
    expect(changed.change.services!.changed.map((c) => [c.id.split(".")[0], c.fields])).toEqual([["web-2", ["address"]]]);

    await deregisterService(consul.url, "web-1");
    const removed = await nthRun(leader, "hist-web", 4);
    expect(byPrefix(removed.change.services!.removed)).toEqual(["web-1"]);
    expect(removed.change.services!.added).toEqual([]);
    expect(removed.outcome).toBe("applied");

    const kvFirst = await nthRun(leader, "hist-kv", 1);
    expect(kvFirst.change.consul_kv).toEqual({ added: ["app/config/a"], removed: [], changed: [] });
    await putKv("app/config/a", "2");
    const kvChanged = await nthRun(leader, "hist-kv", 2);
    expect(kvChanged.change.consul_kv).toEqual({ added: [], removed: [], changed: ["app/config/a"] });
    await putKv("app/config/b", "secret-value");
    const kvAdded = await nthRun(leader, "hist-kv", 3);
    expect(kvAdded.change.consul_kv).toEqual({ added: ["app/config/b"], removed: [], changed: [] });
    // The same value again, with new flags: Consul has new data, the task's inputs are unchanged.
    await putKv("app/config/b", "secret-value", 5);
    const skipped = await nthRun(leader, "hist-kv", 4);
    expect(skipped).toMatchObject({ outcome: "skipped", skip_reason: "unchanged_inputs", trigger: { kind: "dependency" } });
    expect(skipped.change.consul_kv).toEqual({ added: [], removed: [], changed: [] });
    expect(skipped.plan).toBeUndefined();
    // Secrets never enter a record: keys only.
    expect(JSON.stringify(await runsOf(leader, "hist-kv"))).not.toContain("secret-value");
  }, 240_000);

  it("pages newest first with the before cursor", async () => {
    const leader = await waitForLeader(instances);
    const all = await runsOf(leader, "hist-web");
    const paged: RunRecord[] = [];
    let path = "/v1/tasks/hist-web/runs?limit=3";
    for (;;) {
      const answer = await leader.api("GET", path);
      const page = answer!.json as { runs: RunRecord[]; next?: string };
      paged.push(...page.runs);
      if (!page.next) break;
      path = `/v1/tasks/hist-web/runs?limit=3&before=${page.next}`;
    }
    expect(paged).toEqual(all);
    expect(all.map((run) => run.id)).toEqual(all.map((run) => run.id).sort().reverse());
    const one = await leader.api("GET", `/v1/tasks/hist-web/runs/${all[1]!.id}`);
    // One record is the listed summary plus its detail: the plan and apply output.
    const { logs, resources, outputs, ...summary } = (one!.json as { run: RunRecord }).run;
    expect(summary).toEqual(all[1]);
    expect(logs?.plan?.text).toMatch(/No changes|Plan:/);
    expect(logs?.apply?.text).toMatch(/Apply complete!/);
    expect(resources ?? []).toEqual(expect.any(Array));
    expect(outputs).toBeUndefined();
    expect(all.every((run) => run.logs === undefined)).toBe(true);
    expect((await leader.api("GET", "/v1/tasks/nope/runs"))!.status).toBe(404);
  }, 60_000);

  it("after kill -9 of the leader the new leader serves the same history and adds its own", async () => {
    const leader = await waitForLeader(instances);
    const before = await runsOf(leader, "hist-web");
    const follower = instances.find((instance) => instance !== leader)!;
    // Followers redirect task reads to the leader, as for /v1/status/tasks.
    expect((await follower.api("GET", "/v1/tasks/hist-web/runs"))!.status).toBe(400);
    const { next } = await failover(instances, leader, "SIGKILL");
    // The new leader's start-up pass finds the inputs unchanged: a skipped record of its own.
    const newest = await nthRun(next, "hist-web", before.length + 1);
    expect(newest).toMatchObject({ outcome: "skipped", skip_reason: "unchanged_inputs", trigger: { kind: "leader" }, instance_id: next.id });
    expect((await runsOf(next, "hist-web")).slice(1)).toEqual(before);
  }, 150_000);
});
