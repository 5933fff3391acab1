/**
 * `start -once` and `start -inspect` with the real terraform and the embedded Consul: inspect
 * with and without changes, once applying, and the errors of a failing module and of a module
 * path that does not exist.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { runCli } from "../../harness/run-cli.ts";
import {
  demoStateLines, readServiceLines, readTerraformState, registerService, testModules, writeE2eConfig,
} from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const env = terraformTestEnv();
let consul: TestConsulDevServer;
const tmp = tempDir("modes");

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
});
afterAll(async () => {
  await consul.stop();
  tmp.remove();
});

const start = (config: string, ...flags: string[]) =>
  runCli("node", ["start", `-config-file=${config}`, ...flags], { cwd: tmp.path, env, timeoutMs: 90_000 });

describe("once and inspect", () => {
  test("inspect plans without applying; once applies; inspect then sees no changes, and changes after a registration", async () => {
    const dir = join(tmp.path, "ok");
    const config = writeE2eConfig(dir, consul.address, [{ name: "web-task", services: ["web"] }]);

    const firstInspect = await start(config, "-inspect");
    expect(firstInspect.code, firstInspect.stderr).toBe(0);
    expect(firstInspect.stdout + firstInspect.stderr).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy/);
    expect(readServiceLines(dir, "web-task")).toBeUndefined();

    const once = await start(config, "-once");
    expect(once.code, once.stdout + once.stderr).toBe(0);
    expect(readServiceLines(dir, "web-task")).toEqual(["web 10.0.0.1:80"]);
    expect(demoStateLines(await readTerraformState(consul.url, "web-task"))).toEqual(["web 10.0.0.1:80"]);

    const unchanged = await start(config, "-inspect");
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.stdout + unchanged.stderr).toMatch(/No changes\./);

    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    const changed = await start(config, "-inspect-task=web-task");
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout + changed.stderr).toMatch(/Plan: 1 to add, 0 to change, 1 to destroy/);
    // Inspect never applies.
    expect(readServiceLines(dir, "web-task")).toEqual(["web 10.0.0.1:80"]);
  }, 240_000);

  test("init recovers when the task's workspace vanished from Consul (state key deleted)", async () => {
    const dir = join(tmp.path, "vanished");
    const config = writeE2eConfig(dir, consul.address, [{ name: "vanish-task", services: ["web"] }]);
    const first = await start(config, "-once");
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const key = `${consul.url}/v1/kv/consul-terraform-sync/terraform-env:vanish-task`;
    expect((await fetch(key, { method: "DELETE" })).ok).toBe(true);
    expect((await fetch(key)).status).toBe(404);
    const again = await start(config, "-once");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // Terraform 1.11 init skips the selected-workspace check with -input=false; `workspace new`
    // then recreates it (older releases fail init instead: the driver recreates it and retries).
    expect(demoStateLines(await readTerraformState(consul.url, "vanish-task"))).toEqual(readServiceLines(dir, "vanish-task"));
  }, 180_000);

  test("a failing module fails -once with terraform's error", async () => {
    const config = writeE2eConfig(join(tmp.path, "failing"), consul.address, [
      { name: "failing-task", services: ["web"], module: join(testModules, "failing") },
    ]);
    const result = await start(config, "-once");
    expect(result.code).toBe(11);
    expect(result.stdout + result.stderr).toMatch(/Cannot apply task \\?"failing-task\\?": terraform apply exited with 1/);
    expect(result.stdout + result.stderr).toContain("boom: the module failed on purpose");
  }, 120_000);

  test("a module path that does not exist fails -once naming the path", async () => {
    const config = writeE2eConfig(join(tmp.path, "missing"), consul.address, [
      { name: "missing-task", services: ["web"], module: join(tmp.path, "no-such-module") },
    ]);
    const result = await start(config, "-once");
    expect(result.code).toBe(11);
    expect(result.stdout + result.stderr).toMatch(/module path .*no-such-module does not exist/);
  }, 120_000);
});
