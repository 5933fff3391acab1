/**
 * End to end: the real daemon process (Deno, `main.ts start`) with the embedded Consul and the
 * recording driver; the real CLI processes create a task from an HCL file (answering the prompt),
 * the task runs when Consul data changes, then status, disable, enable, delete; the daemon's own
 * service registration turns passing and is removed on SIGTERM.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { startApiDaemon, until, type ApiDaemon } from "../plugins/http-api/helpers/api-daemon.ts";

async function registerService(consul: TestConsulDevServer, id: string, name: string, port: number): Promise<void> {
  const res = await fetch(`${consul.url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({ ID: id, Name: name, Port: port, Address: "10.0.0.1" }),
  });
  expect(res.status).toBe(200);
}

describe("API + CLI end to end (Deno daemon)", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiDaemon;
  beforeAll(async () => {
    consul = await startConsulDevServer();
    daemon = await startApiDaemon({ consulAddress: consul.address });
  }, 60_000);
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await daemon?.stop();
    await consul?.stop();
  });

  it("creates a task from an HCL file, runs it on change, disables, enables, deletes", async () => {
    await registerService(consul, "web-1", "web", 80);
    writeFileSync(path.join(daemon.dir, "task.hcl"), [
      "task {",
      `  name   = "web_task"`,
      `  module = "./module"`,
      "  buffer_period {",
      "    enabled = false",
      "  }",
      `  condition "services" {`,
      `    names = ["web"]`,
      "  }",
      "}",
    ].join("\n"));

    const create = await daemon.cli(["task", "create", "-task-file=task.hcl"], { input: "yes\n" });
    expect(create.code, create.stderr).toBe(0);
    expect(create.stdout).toContain("==> Inspecting changes to resource if creating task 'web_task'...");
    expect(create.stdout).toMatch(/ {4}Request ID: [0-9a-f-]{36}/);
    expect(create.stdout).toContain("    recording plan for web_task: 1 service instance(s)");
    expect(create.stdout).toContain("Enter a value: ");
    expect(create.stdout).toContain("==> Task 'web_task' created");
    const applies = () => daemon.records().filter((r) => r.op === "apply" && r.task === "web_task");
    expect(applies()).toHaveLength(1);

    // Watch it run: a second instance of web appears in Consul.
    await registerService(consul, "web-2", "web", 81);
    const second = await until("a run with two instances", () =>
      applies().find((r) => Object.keys(r.input?.services ?? {}).length === 2));
    expect(second.ok).toBe(true);

    const status = await daemon.cli(["status"]);
    expect(status.code, status.stderr).toBe(0);
    const [header, row] = status.stdout.trim().split("\n");
    expect(header).toMatch(/^TASK\s+ENABLED\s+STATUS\s+LAST RUN\s+LAST ERROR$/);
    expect(row).toMatch(/^web_task\s+true\s+successful\s+\S+\s+-$/);

    const disable = await daemon.cli(["task", "disable", "web_task"]);
    expect(disable.code, disable.stderr).toBe(0);
    expect(disable.stdout).toContain("==> 'web_task' disable complete!");
    const off = await (await fetch(`${daemon.url}/v1/tasks/web_task`)).json();
    expect(off.task.enabled).toBe(false);

    const before = applies().length;
    const enable = await daemon.cli(["task", "enable", "-auto-approve", "web_task"]);
    expect(enable.code, enable.stderr).toBe(0);
    expect(enable.stdout).toContain("    Generating plan that Consul-Terraform-Sync will use Terraform to execute");
    expect(enable.stdout).toContain("==> 'web_task' enable complete!");
    expect(applies().length).toBe(before + 1);

    const cancelled = await daemon.cli(["task", "delete", "web_task"], { input: "no\n" });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain("    Cancelled deleting task 'web_task'");
    const del = await daemon.cli(["task", "delete", "-auto-approve", "web_task"]);
    expect(del.code, del.stderr).toBe(0);
    expect(del.stdout).toContain("marked for deletion");
    await until("the task to be gone", async () =>
      (await fetch(`${daemon.url}/v1/tasks/web_task`)).status === 404 ? true : undefined);

    const missing = await daemon.cli(["task", "disable", "web_task"]);
    expect(missing.code).toBe(11);
    expect(missing.stderr).toContain("==> Error: unable to disable 'web_task'");
    expect(missing.stdout).toContain("does not exist");
  }, 120_000);

  it("registers itself in Consul with a passing health check", async () => {
    const check = await until("a passing CTS check", async () => {
      const checks = await (await fetch(`${consul.url}/v1/agent/checks`)).json() as Record<string, { Status: string }>;
      return checks["cts-e2e-api-health"]?.Status === "passing" ? checks["cts-e2e-api-health"] : undefined;
    });
    expect(check.Status).toBe("passing");
  });

  it("exits 0 on SIGTERM and deregisters from Consul", async () => {
    stopped = true;
    expect(await daemon.stop()).toBe(0);
    const services = await (await fetch(`${consul.url}/v1/agent/services`)).json() as Record<string, unknown>;
    expect(services["cts-e2e-api"]).toBeUndefined();
  });
});
