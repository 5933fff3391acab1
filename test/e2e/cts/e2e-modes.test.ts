/**
 * Port of the -inspect/-once scenarios of CTS's e2e/e2e_test.go, each a real `start` process that
 * exits (the real terraform, the embedded Consul): TestE2EInspectMode, TestE2E_OnceMode,
 * TestE2EValidateError. The other one-shot scenarios are in e2e-start.test.ts.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { makeTempDir, startCtsConsul, startToEnd, webTask, webTaskName, writeCtsConfig } from "./cts-e2e-harness.ts";

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

  const setup = (name: string, extra: string, driverExtra = "") => writeCtsConfig(root, name, consul, extra, driverExtra);

  it("TestE2EInspectMode: the plan is logged, nothing is applied, graceful shutdown", async () => {
    const [dir, config] = setup("inspect", webTask);
    const result = await startToEnd(["start", `--config-file=${config}`, "-inspect"]);
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
    const result = await startToEnd(["start", `--config-file=${config}`, "-once"]);
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
    const result = await startToEnd(["start", `--config-file=${config}`]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('module for task "cts_error_task" is missing the "services" variable');
  }, 60_000);
});
