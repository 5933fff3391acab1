/**
 * Variables that third-party blocks publish reach the module through the real Terraform driver:
 * `start -once` on Node with a plain-JavaScript plugin loaded from outside plugins/
 * (test/fixtures/plugins/inputs-inventory) declares them in variables.tf (with the owner's type, or
 * `type = any`), passes them in main.tf, values them in terraform.tfvars, and the real terraform hands
 * them to a module that writes them down. CTS has no third-party blocks; CTS's own variables keep
 * their files byte for byte (the golden tests pin those).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot, runCli, type CliResult } from "../../harness/run-cli.ts";
import { testModules } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const PLUGIN = join(repoRoot, "test", "fixtures", "plugins", "inputs-inventory", "mod.js");

describe("third-party input variables through the real Terraform driver", () => {
  let consul: TestConsulDevServer;
  const tmp = tempDir("third-party-inputs");
  let result: CliResult;
  const taskDir = () => join(tmp.path, "sync-tasks", "inventory-task");
  const file = (name: string) => readFileSync(join(taskDir(), name), "utf8");

  beforeAll(async () => {
    consul = await startConsulDevServer();
    const config = join(tmp.path, "cts.hcl");
    writeFileSync(config, `working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
}
plugin "inventory" {
  source = ${JSON.stringify(PLUGIN)}
}
task {
  name      = "inventory-task"
  module    = ${JSON.stringify(join(testModules, "inventory"))}
  variables = { dir = ${JSON.stringify(JSON.stringify(tmp.path))} }
  condition "inventory" {
    hosts = [{ name = "db \\"primary\\"", port = 5432 }, { name = "cache", port = 6379 }]
  }
  module_input "labels" {
    values = { team = "net", "tier/1" = "gold" }
  }
}
`);
    result = await runCli("node", ["start", "-once", `-config-file=${config}`], {
      cwd: tmp.path, env: terraformTestEnv(), timeoutMs: 120_000,
    });
  }, 150_000);

  afterAll(async () => {
    await consul?.stop();
    tmp.remove();
  });

  it("the module receives both variables with their values", () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp.path, "inputs.json"), "utf8"))).toEqual({
      inventory: [{ name: 'db "primary"', port: 5432 }, { name: "cache", port: 6379 }],
      labels: { team: "net", "tier/1": "gold" },
    });
  });

  it("variables.tf declares them after CTS's, with the owner's type or `type = any`", () => {
    expect(file("variables.tf")).toContain(`# Inventory definition protocol v0
variable "inventory" {
  description = "Hosts listed by the inventory condition"
  type = list(object({
    name = string
    port = number
  }))
}

variable "labels" {
  type = any
}
`);
  });

  it("main.tf passes them to the module and terraform.tfvars values them in block order", () => {
    expect(file("main.tf")).toMatch(/  services  = var\.services\n  inventory = var\.inventory\n  labels    = var\.labels\n/);
    const tfvars = file("terraform.tfvars");
    expect(tfvars).toContain(`
inventory = [
  {
    name = "db \\"primary\\""
    port = 5432
  },
  {
    name = "cache"
    port = 6379
  },
]
`);
    expect(tfvars).toContain(`
labels = {
  team     = "net"
  "tier/1" = "gold"
}
`);
    expect(tfvars.indexOf("inventory =")).toBeLessThan(tfvars.indexOf("labels ="));
    expect(tfvars.trimEnd().endsWith("services = {\n}")).toBe(true);
  });

  it("the generated files are terraform fmt-clean", () => {
    const check = spawnSync("terraform", ["fmt", "-check", "-diff", taskDir()], { env: terraformTestEnv(), encoding: "utf8" });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
