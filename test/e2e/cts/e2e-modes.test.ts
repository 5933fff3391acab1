/**
 * Port of the -inspect/-once scenarios of CTS's e2e/e2e_test.go, each a real `start` process that
 * exits (the real terraform, the embedded Consul): TestE2EInspectMode, TestE2E_OnceMode,
 * TestE2EValidateError. The other one-shot scenarios are in e2e-start.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../helpers/consul-dev-server.ts";
import { repoRoot } from "../../helpers/run-cli.ts";
import { terraformTestEnv } from "../../plugins/driver-terraform/terraform-env.ts";
import { ctsConfig, ctsE2eDir, makeTempDir, startCtsConsul, webTask, webTaskName } from "./cts-e2e-harness.ts";

/** `consul-terraform-sync start ...` run to its end; stdout and stderr together, as CTS's tests read them. */
function start(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "dist", "main.js"), ...args], { cwd: ctsE2eDir, env: terraformTestEnv() });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("CTS e2e e2e_test.go: -once, -inspect and start-up", () => {
  let consul: TestConsulDevServer;
  let root: string;
  beforeAll(async () => {
    consul = await startCtsConsul();
    root = makeTempDir("modes");
  });
  afterAll(async () => {
    await consul?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** A temp dir holding config.hcl (CTS's base config + `extra`); returns [dir, config path]. */
  function setup(name: string, extra: string, driverExtra = ""): [string, string] {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    let config = ctsConfig(dir, consul, 0, extra);
    if (driverExtra) config = config.replace(/(driver "terraform" \{\n)/, `$1${driverExtra}\n`);
    const file = path.join(dir, "config.hcl");
    writeFileSync(file, config);
    return [dir, file];
  }

  it("TestE2EInspectMode: the plan is logged, nothing is applied, graceful shutdown", async () => {
    const [dir, config] = setup("inspect", webTask);
    const result = await start(["start", `--config-file=${config}`, "-inspect"]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("graceful shutdown");
    expect(result.output).toContain("Plan: 2 to add, 0 to change, 0 to destroy.");
    for (const service of ["web", "api"]) expect(existsSync(path.join(dir, webTaskName, "resources", `${service}.txt`))).toBe(false);
  }, 60_000);

  it("TestE2E_OnceMode: each task runs once, in order, while a scheduled task would run every second", async () => {
    const [dir, config] = setup("once", `
task {
  name = "a_scheduled_task"
  module = "./test_modules/local_instances_file"
  condition "schedule" {
    cron = "*/1 * * * * * *"
  }
  module_input "services" {
    names = ["web", "api"]
  }
}
task {
  name = "b_delayed_task"
  description = "e2e test"
  module = "./test_modules/delayed_module"
  condition "services" {
    names = ["api", "web"]
  }
}
`);
    const result = await start(["start", `--config-file=${config}`, "-once"]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("graceful shutdown");
    const completed = (task: string) => `task completed: task_name=${task}`;
    expect(result.output.indexOf(completed("a_scheduled_task"))).toBeGreaterThan(-1);
    expect(result.output.indexOf(completed("a_scheduled_task"))).toBeLessThan(result.output.indexOf(completed("b_delayed_task")));
    for (const task of ["b_delayed_task", "a_scheduled_task"]) {
      expect(result.output.split(completed(task)).length - 1, task).toBe(1);
      for (const service of ["web", "api"]) expect(existsSync(path.join(dir, task, "resources", `${service}.txt`)), task).toBe(true);
    }
  }, 60_000);

  it("TestE2EValidateError: a module without the services variable stops start-up with CTS's sentence", async () => {
    const [, config] = setup("validate_errors", `
task {
  name = "cts_error_task"
  module = "./test_modules/incompatible_w_cts"
  condition "catalog-services" {
    regexp = "^api$|^db$"
    use_as_module_input = true
  }
}
`);
    const result = await start(["start", `--config-file=${config}`]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('module for task "cts_error_task" is missing the "services" variable');
  }, 60_000);
});
