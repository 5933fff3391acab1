/**
 * The log lines operators alert on carry CTS's wording (controller/tasks_manager.go,
 * controller/condition_monitor.go, command/start.go); cts-runtime's extra fields follow them:
 * `executing task` / `task completed` / `error running task` with `task_name`, and on SIGTERM
 * `signal received to initiate graceful shutdown: signal=terminated`, then `graceful shutdown`.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot, runCli, spawnCli } from "../../harness/run-cli.ts";

const modules = path.join(repoRoot, "test", "plugins", "driver-terraform", "modules");

describe("CTS's log lines", () => {
  let consul: TestConsulDevServer;
  beforeAll(async () => {
    consul = await startConsulDevServer();
    await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify({ ID: "web-1", Name: "web", Port: 80 }) });
  });
  afterAll(async () => {
    await consul?.stop();
  });

  async function writeConfig(task: string, module: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "cts-log-lines-"));
    const file = path.join(dir, "cts.hcl");
    await writeFile(file, `
port = 0
working_dir = "${dir}/work"
consul {
  address = "${consul.address}"
}
driver "terraform" {
  backend "local" {}
}
task {
  name   = "${task}"
  module = "${path.join(modules, module)}"
  condition "services" {
    names = ["web"]
  }
}
`);
    return file;
  }

  it("logs a run's start and completion, and a SIGTERM's graceful shutdown, in CTS's words", async () => {
    const config = await writeConfig("ok_task", "stub");
    const child = spawnCli("node", ["start", `-config-file=${config}`]);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.stdout!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      for (let i = 0; i < 600 && !/task completed: task_name=ok_task/.test(stderr); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stderr).toMatch(/\[INFO\] +tasksmanager: executing task: task_name=ok_task\b/);
      expect(stderr).toMatch(/\[INFO\] +tasksmanager: task completed: task_name=ok_task\b/);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/\[INFO\] +cli: signal received to initiate graceful shutdown: signal=terminated\n/);
    expect(stderr).toMatch(/\[INFO\] +cli: graceful shutdown\n/);
  });

  it("logs -once as CTS does: `running task once`, the run's lines, `all tasks completed once`, `graceful shutdown`", async () => {
    const config = await writeConfig("once_task", "stub");
    const result = await runCli("node", ["start", "-once", `-config-file=${config}`], { timeoutMs: 45_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/running task once: task_name=once_task\n(.*\n)*.*executing task: task_name=once_task .*\n(.*\n)*.*tasksmanager: task completed: task_name=once_task\n(.*\n)*.*all tasks completed once\n(.*\n)*.*\[INFO\] +cli: graceful shutdown\n/);
  });

  it("logs a failed run as `error running task` with the task name and the error", async () => {
    const config = await writeConfig("bad_task", "failing");
    const result = await runCli("node", ["start", "-once", `-config-file=${config}`], { timeoutMs: 45_000 });
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toMatch(/\[ERROR\] +tasksmanager: error running task: task_name=bad_task error=/);
    expect(result.stderr).not.toMatch(/graceful shutdown/);
  });
});
