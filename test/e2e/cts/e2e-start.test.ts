/**
 * Port of the start-up scenarios of CTS's e2e/e2e_test.go run as `start -once` (the real terraform,
 * the embedded Consul): TestE2ELocalBackend (one task where CTS has two), TestE2E_FilterStatus,
 * TestE2EArgumentParsing (without tasks: only the flags matter), TestE2ERestart (as two -once runs).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { dbTask, makeTempDir, startCtsConsul, startToEnd, writeCtsConfig } from "./cts-e2e-harness.ts";

describe("CTS e2e e2e_test.go: start-up", () => {
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

  it("TestE2ELocalBackend: where each workspace's state lands", async () => {
    const cases: [string, string, (dir: string, task: string) => string][] = [
      ["default", `backend "local" {}`, (dir, task) => path.join(dir, task, "terraform.tfstate.d", task)],
      ["ws_dir", `backend "local" {\n  workspace_dir = "test-workspace"\n}`, (dir, task) => path.join(dir, task, "test-workspace", task)],
      ["shared_ws_dir", `backend "local" {\n  workspace_dir = "../shared-workspace"\n}`, (dir, task) => path.join(dir, "shared-workspace", task)],
      ["path", `backend "local" {\n  path = "this-will-be-replaced-by-default-dir/terraform.tfstate"\n}`,
        (dir, task) => path.join(dir, task, "terraform.tfstate.d", task)],
    ];
    const results = await Promise.all(cases.map(async ([name, backend, statePath]) => {
      const [dir, config] = setup(`local_backend_${name}`, dbTask, backend);
      return { name, dir, statePath, result: await startToEnd(["start", `-config-file=${config}`, "-once"]) };
    }));
    for (const { name, dir, statePath, result } of results) {
      expect(result.code, `${name}\n${result.output}`).toBe(0);
      for (const task of ["e2e_task_api_db"]) expect(readdirSync(statePath(dir, task)), `${name} ${task}`).toEqual(["terraform.tfstate"]);
    }
  }, 90_000);

  it("TestE2E_FilterStatus: passing instances only by default, all with a status filter", async () => {
    const task = (filter: string) => `
task {
  name = "status_filter_task"
  module = "./test_modules/null_resource"
  condition "services" {
    names = ["api", "unhealthy-service"]
    ${filter}
  }
}
`;
    const [[plainDir, plain], [filteredDir, filtered]] = [setup("filter_default", task("")), setup("filter_w_filter", task('filter = "Checks.Status != \\"\\""'))];
    const results = await Promise.all([startToEnd(["start", `-config-file=${plain}`, "-once"]), startToEnd(["start", `-config-file=${filtered}`, "-once"])]);
    for (const result of results) expect(result.code, result.output).toBe(0);
    const tfvars = (dir: string) => readFileSync(path.join(dir, "status_filter_task", "terraform.tfvars"), "utf8");
    const byDefault = tfvars(plainDir);
    expect(byDefault).not.toContain("unhealthy-service");
    expect(byDefault).not.toMatch(/= "critical"/);
    expect(byDefault).toContain("api");
    expect(byDefault).toMatch(/= "passing"/);
    const withFilter = tfvars(filteredDir);
    expect(withFilter).toContain("unhealthy-service");
    expect(withFilter).toMatch(/= "critical"/);
    expect(withFilter).toMatch(/= "passing"/);
  }, 60_000);

  it("TestE2EArgumentParsing: `-flag value` and `-flag=value`, with and without the start command", async () => {
    const [, config] = setup("argument_parsing", "");
    const emptyDir = path.join(root, "argument_parsing_emptydir");
    mkdirSync(emptyDir);
    const withStart = await startToEnd(["start", "-config-dir", emptyDir, `-config-dir=${emptyDir}`, `-config-file=${config}`, "-once"]);
    expect(withStart.code, withStart.output).toBe(0);
    const legacy = await startToEnd(["-config-dir", emptyDir, `-config-dir=${emptyDir}`, `-config-file=${config}`, "-once"]);
    expect(legacy.code, legacy.output).toBe(0);
  }, 60_000);
  // TestE2ERestart runs the daemon twice on one config; the second start finds the workspaces and
  // state of the first (in Consul) and must not fail recreating them. Two -once runs do the same.
  it("TestE2ERestart: a second start on the same config and Consul state succeeds", async () => {
    const [dir, config] = setup("restart", dbTask);
    for (const round of [1, 2]) {
      const result = await startToEnd(["start", `-config-file=${config}`, "-once"]);
      expect(result.code, `round ${round}\n${result.output}`).toBe(0);
    }
    expect(readdirSync(path.join(dir, "e2e_task_api_db", "resources")).sort()).toEqual(["api.txt", "db.txt"]);
  }, 60_000);
});
