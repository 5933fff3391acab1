/**
 * @module End to end on Deno (the daemon from source, real terraform, the embedded Consul): the files
 * CTS users and scripts read. A disabled task gets its terraform.tfvars.tmpl at start-up (CTS
 * initialises disabled tasks); terraform.tfvars puts the condition's consul_kv before the
 * module_input's services, as CTS's templates render; an event's config.source for a `./` module
 * is the absolute path CTS's driver makes of it.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { spawnCli } from "../../harness/run-cli.ts";
import { registerService, waitFor } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const MODULE = `
variable "services" {
  type = map(object({ id = string, address = string }))
}
variable "consul_kv" {
  type = map(string)
}
output "seen" {
  value = { for k, s in var.services : k => "\${s.address} \${lookup(var.consul_kv, "color", "-")}" }
}
`;

describe("generated files and events of the daemon on Deno", () => {
  let consul: TestConsulDevServer;
  let daemon: ChildProcess;
  let logs = "";
  let port = 0;
  const tmp = tempDir("generated");

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await registerService(consul.url, "web-1", "web", "10.0.0.7");
    const put = await fetch(`${consul.url}/v1/kv/color`, { method: "PUT", body: "blue" });
    expect(put.ok).toBe(true);
    mkdirSync(join(tmp.path, "modules", "m"), { recursive: true });
    writeFileSync(join(tmp.path, "modules", "m", "main.tf"), MODULE);
    port = await freePort();
    writeFileSync(join(tmp.path, "cts.hcl"), `
port        = ${port}
working_dir = "sync-tasks"
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
task {
  name   = "kv-task"
  module = "./modules/m"
  condition "consul-kv" {
    path = "color"
  }
  module_input "services" {
    names = ["web"]
  }
}
task {
  name    = "sleeping"
  enabled = false
  module  = "./modules/m"
  condition "services" {
    names = ["web"]
  }
}
`);
    daemon = spawnCli("deno", ["start", "-config-file=cts.hcl"], { cwd: tmp.path, env: terraformTestEnv() });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
  });

  afterAll(async () => {
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once("exit", resolve));
      daemon.kill("SIGTERM");
      await exited;
    }
    await consul?.stop();
    tmp.remove();
  });

  async function events(task: string): Promise<{ success: boolean; config: { source: string } }[]> {
    const response = await fetch(`http://127.0.0.1:${port}/v1/status/tasks/${task}?include=events`).catch(() => undefined);
    if (!response?.ok) return [];
    return ((await response.json()) as Record<string, { events?: [] }>)[task]?.events ?? [];
  }

  it("the start-up run records the absolute module path and renders consul_kv before services", async () => {
    await waitFor(async () => (await events("kv-task")).length > 0, () => logs, 90_000);
    const [event] = await events("kv-task");
    expect(event!.success, logs).toBe(true);
    // CTS: driver/terraform.go joins a ./ or ../ module onto the working directory; events report that.
    expect(event!.config.source).toBe(join(tmp.path, "modules", "m"));

    // CTS: the condition's template comes first in terraform.tfvars.tmpl, so consul_kv precedes services.
    const tfvars = readFileSync(join(tmp.path, "sync-tasks", "kv-task", "terraform.tfvars"), "utf8");
    expect(tfvars).toMatch(/\n\nconsul_kv = \{\n {2}"color" = "blue"\n\}\n\nservices = \{\n {2}"web-1\.consul-dev\.dc1" = \{\n[^]*\n {2}\},\n\}\n$/);
    const template = readFileSync(join(tmp.path, "sync-tasks", "kv-task", "terraform.tfvars.tmpl"), "utf8");
    expect(template).toContain(`consul_kv = {\n{{- with $kv := keyExistsGet "color" }}`);
  }, 120_000);

  it("a disabled task gets its terraform.tfvars.tmpl at start-up", async () => {
    const path = join(tmp.path, "sync-tasks", "sleeping", "terraform.tfvars.tmpl");
    await waitFor(() => existsSync(path), () => logs, 90_000);
    expect(readFileSync(path, "utf8")).toContain(`services = {\n{{- with $srv := service "web" }}`);
    expect(await events("sleeping")).toEqual([]);
  }, 120_000);
});
