/**
 * Crash safety (issue 11), on Node (dist/main.js) and Deno (main.ts), with the real terraform, the
 * embedded Consul and Terraform's state in it (the default consul backend): `kill -9` of the daemon in
 * the middle of an apply leaves no terraform (nor its provisioner) running, and an immediate restart
 * converges: the task ends successful with the inputs registered meanwhile. Before, the orphaned apply
 * kept the state lock and the restarted daemon exited at start-up ("failed to lock state in Consul").
 * CTS has Linux kill its Terraform with it (parent-death signal); this pins that behaviour.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { spawnCli, type Runtime } from "../../harness/run-cli.ts";
import { processesUnder, startedApplies, taskStatus, writeSlowConfig } from "../../harness/driver-terraform/crash-support.ts";
import { readServiceLines, registerService, waitFor } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

let consul: TestConsulDevServer;
beforeAll(async () => {
  consul = await startConsulDevServer();
});
afterAll(async () => {
  await consul.stop();
});

for (const runtime of ["node", "deno"] as Runtime[]) {
  describe(`kill -9 during an apply on ${runtime}`, () => {
    const tmp = tempDir(`crash-${runtime}`);
    const service = `web-${runtime}`;
    const task = `crash-${runtime}`;
    let daemon: ChildProcess | undefined;
    let logs = "";
    afterAll(async () => {
      if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
        const exited = new Promise((resolve) => daemon!.once("exit", resolve));
        daemon.kill("SIGKILL");
        await exited;
      }
      tmp.remove();
    });

    const start = (config: string) => {
      const child = spawnCli(runtime, ["start", `-config-file=${config}`], { cwd: tmp.path, env: terraformTestEnv() });
      child.stdout!.on("data", (chunk) => (logs += chunk));
      child.stderr!.on("data", (chunk) => (logs += chunk));
      return child;
    };

    test("no terraform survives the daemon, and the restart converges to the latest inputs", async () => {
      await registerService(consul.url, `${service}-1`, service, "10.0.0.1");
      const port = await freePort();
      const config = writeSlowConfig({ dir: tmp.path, consulAddress: consul.address, task, services: [service], port, applySleep: 30 });
      const taskDir = join(tmp.path, "sync-tasks");
      daemon = start(config);
      await waitFor(() => startedApplies(tmp.path, task) === 1, () => `the apply never started\n${logs}`, 60_000);
      expect(processesUnder(taskDir).some((p) => /terraform apply/.test(p.command))).toBe(true);

      const exited = new Promise((resolve) => daemon!.once("exit", resolve));
      daemon.kill("SIGKILL");
      await exited;
      // Bounded poll, not a timing claim: the bench measures how long the orphan lived (about 1 s).
      await waitFor(() => processesUnder(taskDir).length === 0, () => `still running: ${JSON.stringify(processesUnder(taskDir))}`, 15_000)
        .catch(() => undefined);
      expect(processesUnder(taskDir)).toEqual([]);

      // Inputs change while the daemon is down; the restart must apply them and succeed.
      await registerService(consul.url, `${service}-2`, service, "10.0.0.2");
      writeSlowConfig({ dir: tmp.path, consulAddress: consul.address, task, services: [service], port, applySleep: 1 });
      logs += "\n--- restart ---\n";
      daemon = start(config);
      await waitFor(
        () => JSON.stringify(readServiceLines(tmp.path, task)) === JSON.stringify([`${service} 10.0.0.1:80`, `${service} 10.0.0.2:80`]),
        () => `not converged: ${JSON.stringify(readServiceLines(tmp.path, task))}\n${logs}`, 90_000,
      );
      await waitFor(async () => (await taskStatus(port, task)) === "successful", () => `status never successful\n${logs}`, 30_000);
      expect(daemon.exitCode).toBeNull();
      expect(logs).not.toMatch(/failed to lock state/);
    }, 150_000);
  });
}
