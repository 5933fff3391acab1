/**
 * The golden root modules are valid Terraform and their terraform.tfvars fit the declared types
 * (`services`' exact object type included): each variant (those needing no provider download) is
 * planned and applied by the real terraform against a stub module, with a local backend override.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { goldenCases } from "./golden-cases.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

const env = terraformTestEnv();
const tmp = tempDir("golden-validate");
afterAll(() => tmp.remove());

const variants = ["no-providers", "variables", "catalog-services", "consul-kv", "backend-local", "backend-consul-tls"];

test.each(variants)("%s: init, validate and apply with the rendered values", (variant) => {
  const dir = join(tmp.path, variant);
  cpSync(join(import.meta.dirname, "golden", variant), dir, { recursive: true });
  const main = readFileSync(join(dir, "main.tf"), "utf8");
  writeFileSync(join(dir, "main.tf"), main.replace('"/srv/cts/modules/web"', JSON.stringify(join(import.meta.dirname, "modules", "stub"))));
  writeFileSync(join(dir, "backend_override.tf"), `terraform {\n  backend "local" {\n    path = "${join(dir, "state.tfstate")}"\n  }\n}\n`);
  writeFileSync(join(dir, "outputs.tf"), 'output "echo" {\n  value = module.web-task.echo\n}\n');
  const run = (...args: string[]) => execFileSync("terraform", args, { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
  run("init", "-input=false", "-no-color");
  run("validate", "-no-color");
  run("apply", "-auto-approve", "-input=false", "-no-color");
  const echo = JSON.parse(run("output", "-json", "echo"));
  const inputs = goldenCases[variant]!.inputs;
  // Terraform maps iterate in key order.
  expect(Object.keys(echo.services)).toEqual(Object.keys(inputs.services).sort());
  for (const [key, instance] of Object.entries(inputs.services)) expect(echo.services[key]).toEqual(instance);
  expect(echo.catalog_services).toEqual(inputs.catalog_services ?? null);
  expect(echo.consul_kv).toEqual(inputs.consul_kv ?? null);
  if (variant === "variables") {
    // The task's HCL expressions arrive as the values they denote.
    expect(echo.a_string).toBe('hello "world" ${x}');
    expect(echo.tags).toEqual({ env: "prod", "my-key": ["x"], nested: { deep: 1 } });
  }
}, 60_000);
