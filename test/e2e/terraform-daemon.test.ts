/**
 * End to end, on Node (dist/main.js) and on Deno (`deno run -A main.ts start`): the daemon with
 * the real terraform and the embedded Consul (state in its KV). Two tasks follow registrations,
 * changes and deregistrations; both the module's output file and the Terraform state key move.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { spawnCli, type Runtime } from "../../harness/run-cli.ts";
import {
  demoStateLines, deregisterService, readServiceLines, readTerraformState, registerService, waitFor, writeE2eConfig,
} from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

for (const runtime of ["node", "deno"] as Runtime[]) {
  describe(`daemon on ${runtime} with terraform and the embedded Consul`, () => {
    let consul: TestConsulDevServer;
    let daemon: ChildProcess;
    let logs = "";
    const tmp = tempDir(`daemon-${runtime}`);

    beforeAll(async () => {
      consul = await startConsulDevServer();
      await registerService(consul.url, "web-1", "web", "10.0.0.1");
      await registerService(consul.url, "api-1", "api", "10.0.1.1", 8080);
      const config = writeE2eConfig(tmp.path, consul.address, [
        { name: "web-task", services: ["web"] },
        { name: "api-task", services: ["api"] },
      ]);
      daemon = spawnCli(runtime, ["start", `-config-file=${config}`], { cwd: tmp.path, env: terraformTestEnv() });
      daemon.stdout!.on("data", (chunk) => (logs += chunk));
      daemon.stderr!.on("data", (chunk) => (logs += chunk));
    });

    afterAll(async () => {
      if (daemon.exitCode === null) {
        const exited = new Promise((resolve) => daemon.once("exit", resolve));
        daemon.kill("SIGTERM");
        await exited;
      }
      await consul.stop();
      tmp.remove();
    });

    const lines = (task: string) => readServiceLines(tmp.path, task);
    const follow = (task: string, expected: string[]) =>
      waitFor(() => JSON.stringify(lines(task)) === JSON.stringify(expected),
        () => `${task}: ${JSON.stringify(lines(task))} != ${JSON.stringify(expected)}\n${logs}`);

    test("the once phase applies both tasks; state is in Consul KV under terraform-env:<task>", async () => {
      await follow("web-task", ["web 10.0.0.1:80"]);
      await follow("api-task", ["api 10.0.1.1:8080"]);
      for (const task of ["web-task", "api-task"]) {
        await waitFor(async () => demoStateLines(await readTerraformState(consul.url, task)) !== undefined, () => logs);
      }
      const state = await readTerraformState(consul.url, "web-task");
      expect(demoStateLines(state)).toEqual(["web 10.0.0.1:80"]);
      expect(demoStateLines(await readTerraformState(consul.url, "api-task"))).toEqual(["api 10.0.1.1:8080"]);
    }, 120_000);

    test("registrations, changes and deregistrations in both tasks are followed", async () => {
      const before = (await readTerraformState(consul.url, "web-task"))!.serial;
      await Promise.all([
        registerService(consul.url, "web-2", "web", "10.0.0.2"),
        registerService(consul.url, "api-1", "api", "10.0.1.9", 9090),
      ]);
      await follow("web-task", ["web 10.0.0.1:80", "web 10.0.0.2:80"]);
      await follow("api-task", ["api 10.0.1.9:9090"]);
      await deregisterService(consul.url, "web-1");
      await follow("web-task", ["web 10.0.0.2:80"]);
      // The file is written during apply; the state lands when apply ends.
      await waitFor(async () => demoStateLines(await readTerraformState(consul.url, "web-task"))?.length === 1,
        () => `web-task state never caught up\n${logs}`);
      const state = await readTerraformState(consul.url, "web-task");
      expect(demoStateLines(state)).toEqual(["web 10.0.0.2:80"]);
      expect(state!.serial).toBeGreaterThan(before);
      expect(daemon.exitCode).toBeNull();
    }, 120_000);
  });
}
