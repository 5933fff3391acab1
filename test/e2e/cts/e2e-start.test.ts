/**
 * Port of the start-up scenarios of CTS's e2e/e2e_test.go run as `start -once` (the real terraform,
 * the embedded Consul): TestE2ELocalBackend (one task where CTS has two), TestE2E_FilterStatus,
 * TestE2EArgumentParsing (without tasks: only the flags matter), TestE2ERestart (as two -once runs).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../helpers/consul-dev-server.ts";
import { repoRoot } from "../../helpers/run-cli.ts";
import { terraformTestEnv } from "../../plugins/driver-terraform/terraform-env.ts";
import { ctsConfig, ctsE2eDir, dbTask, makeTempDir, startCtsConsul } from "./cts-e2e-harness.ts";

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
      return { name, dir, statePath, result: await start(["start", `-config-file=${config}`, "-once"]) };
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
    const results = await Promise.all([start(["start", `-config-file=${plain}`, "-once"]), start(["start", `-config-file=${filtered}`, "-once"])]);
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
    const withStart = await start(["start", "-config-dir", emptyDir, `-config-dir=${emptyDir}`, `-config-file=${config}`, "-once"]);
    expect(withStart.code, withStart.output).toBe(0);
    const legacy = await start(["-config-dir", emptyDir, `-config-dir=${emptyDir}`, `-config-file=${config}`, "-once"]);
    expect(legacy.code, legacy.output).toBe(0);
  }, 60_000);
  // TestE2ERestart runs the daemon twice on one config; the second start finds the workspaces and
  // state of the first (in Consul) and must not fail recreating them. Two -once runs do the same.
  it("TestE2ERestart: a second start on the same config and Consul state succeeds", async () => {
    const [dir, config] = setup("restart", dbTask);
    for (const round of [1, 2]) {
      const result = await start(["start", `-config-file=${config}`, "-once"]);
      expect(result.code, `round ${round}\n${result.output}`).toBe(0);
    }
    expect(readdirSync(path.join(dir, "e2e_task_api_db", "resources")).sort()).toEqual(["api.txt", "db.txt"]);
  }, 60_000);
});
