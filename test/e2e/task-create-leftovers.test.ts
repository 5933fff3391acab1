/**
 * Issue 24 item 5 and issue 25 item 17: one real HA instance (`node dist/main.js start`), the real
 * Terraform with its state in the embedded Consul. On main `POST /v1/tasks` with a module Terraform's
 * validate refuses answered 201 and kept the task (CTS answers 500 and adds nothing), and a rejected
 * create left its working directory, its Terraform workspace, its events and run records (Consul KV)
 * and its metrics series behind. Now a rejected create (and a dry run) leaves nothing. A delete
 * removes the task's keys and, as CTS, keeps its working directory and its Terraform state.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type HaInstance, registerService, startCluster, stopCluster, until, waitForLeader } from "../../harness/ha-consul/ha-cluster.ts";
import { terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const CLUSTER = "leftovers";
let consul: TestConsulDevServer;
let dir: string;
let instance: HaInstance;

const MODULES: Record<string, string> = {
  good: `variable "services" {\n  type = any\n}\nresource "terraform_data" "seen" {\n  input = sort(keys(var.services))\n}\n`,
  // Terraform's validate refuses it: an undeclared variable is referenced.
  invalid: `variable "services" {\n  type = any\n}\noutput "x" {\n  value = var.not_declared\n}\n`,
  // Valid, but its plan fails before anything is created.
  failing: `variable "services" {\n  type = any\n}\nresource "terraform_data" "never" {\n  input = 1\n  lifecycle {\n    precondition {\n      condition     = length(var.services) > 100\n      error_message = "too few services"\n    }\n  }\n}\n`,
};

async function kvKeys(): Promise<string[]> {
  const response = await fetch(`${consul.url}/v1/kv/?keys`);
  return response.status === 200 ? (await response.json()) as string[] : [];
}

/** Every trace of `task` the daemon could leave: KV keys, its working directory, metrics series. */
async function traces(task: string): Promise<string[]> {
  const keys = (await kvKeys()).filter((key) => key.split(/[/:]/).includes(task));
  const metrics = ((await (await fetch(`${instance.url}/metrics`)).text()).split("\n")).filter((line) => line.includes(`task="${task}"`));
  const workingDir = join(instance.dir, "sync-tasks", task);
  return [...keys, ...metrics, ...(existsSync(workingDir) ? [workingDir] : [])];
}

/** A create runs Terraform (init, validate, maybe apply): it may take longer than the helper's 5 s bound. */
async function create(name: string, module: string, query = ""): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${instance.url}/v1/tasks${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ task: { name, module: join(dir, "modules", module), condition: { services: { names: ["web"] } } } }),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  dir = mkdtempSync(join(tmpdir(), "cts-leftovers-"));
  for (const [name, text] of Object.entries(MODULES)) {
    mkdirSync(join(dir, "modules", name), { recursive: true });
    writeFileSync(join(dir, "modules", name, "main.tf"), text);
  }
  [instance] = await startCluster({
    consulAddress: consul.address, cluster: CLUSTER, dir, sessionTtl: "1000ms", driverHcl: "", tasksHcl: "", env: terraformTestEnv(),
  }, 1) as [HaInstance];
  await waitForLeader([instance]);
}, 90_000);

afterAll(async () => {
  await stopCluster([instance]);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("what a task create or delete leaves behind", () => {
  beforeEach(() => onTestFailed(() => console.log(instance.output.slice(-5000))));

  it("a module Terraform's validate refuses: 500, as CTS, and nothing is added or left", async () => {
    const answer = await create("invalid-task", "invalid");
    expect(answer.status).toBe(500);
    expect((answer.json["error"] as { message: string }).message).toMatch(/^Cannot validate task "invalid-task": Reference to undeclared input variable/);
    expect((await instance.api("GET", "/v1/tasks/invalid-task"))?.status).toBe(404);
    expect(await traces("invalid-task")).toEqual([]);
  }, 60_000);

  it("a create whose run=now fails: 500 and nothing left (events, run records, workspace, directory, metrics)", async () => {
    const answer = await create("failing-task", "failing", "?run=now");
    expect(answer.status).toBe(500);
    expect((answer.json["error"] as { message: string }).message).toContain("too few services");
    expect(await traces("failing-task")).toEqual([]);
  }, 60_000);

  it("a dry run (run=inspect) leaves nothing either", async () => {
    const answer = await create("dry-task", "good", "?run=inspect");
    expect(answer.status).toBe(200);
    expect(await traces("dry-task")).toEqual([]);
  }, 60_000);

  it("a delete removes the task's keys; as CTS, its working directory and its Terraform state stay", async () => {
    expect((await create("kept-task", "good", "?run=now")).status).toBe(201);
    const root = `consul-terraform-sync/${CLUSTER}`;
    await until("kept-task's stored keys", async () => {
      const keys = await kvKeys();
      return [`${root}/tasks/kept-task`, `${root}/events/kept-task`].every((key) => keys.includes(key)) ? true : undefined;
    }, 20_000);
    expect((await instance.api("DELETE", "/v1/tasks/kept-task"))?.status).toBe(202);
    await until("kept-task's keys gone", async () => ((await kvKeys()).some((key) => key.startsWith(`${root}/`) && key.includes("kept-task")) ? undefined : true), 20_000);
    expect(existsSync(join(instance.dir, "sync-tasks", "kept-task", "main.tf"))).toBe(true);
    expect(await kvKeys()).toContain("consul-terraform-sync/terraform-env:kept-task");
  }, 60_000);
});
