/**
 * @module What the CTS e2e ports of the consul-kv, schedule and module_input scenarios share: a
 * daemon (`node dist/main.js start`) set up like CTS's `ctsSetup` (working_dir = the temp dir, one
 * directory per task, buffer periods off, the offline stand-ins of CTS's test modules under
 * ./test_modules), the task status API's events, and the Consul writes CTS's testutils make.
 */
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import type { CtsEvent } from "./cts-api-support.ts";
import { repoRoot, runCli, spawnCli, type CliResult } from "../../../harness/run-cli.ts";
import { waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

export { waitFor };

export type { CtsEvent };

export interface CtsDaemon {
  readonly dir: string;
  readonly port: number;
  readonly url: string;
  output(): string;
  /** The task's events, newest first (CTS's `events(t, task, port)`); [] while the task is unknown. */
  events(task: string): Promise<CtsEvent[]>;
  /** The HTTP status of GET /v1/status/tasks/<task>. */
  statusCode(task: string): Promise<number>;
  /** Waits for an event that started after `since` (CTS's `api.WaitForEvent`). */
  waitForEvent(task: string, since: number, timeoutMs?: number): Promise<CtsEvent>;
  /** Runs a CLI command against the daemon (CTS's `runSubcommand` with -http-addr). */
  cli(args: readonly string[], input?: string): Promise<CliResult>;
  /** Writes `hcl` to task.hcl and runs `task create -task-file=task.hcl`, answering `input`. */
  createTask(hcl: string, input?: string): Promise<CliResult>;
  /** Path under the task's working directory. */
  taskPath(task: string, ...parts: string[]): string;
  stop(): Promise<void>;
}

function configHcl(dir: string, consul: TestConsulDevServer, port: number, tasksHcl: string): string {
  return `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(dir)}
buffer_period {
  enabled = false
}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
driver "terraform" {
  log = true
}
${tasksHcl}
`;
}

/** CTS's testInvalidTaskConfig first half: `start -once` with the task, in a fresh directory. */
export async function runOnce(consul: TestConsulDevServer, prefix: string, tasksHcl: string): Promise<CliResult> {
  const tmp = tempDir(prefix);
  try {
    cpSync(join(repoRoot, "test", "fixtures", "cts-modules"), join(tmp.path, "test_modules"), { recursive: true });
    writeFileSync(join(tmp.path, "config.hcl"), configHcl(tmp.path, consul, 0, tasksHcl));
    return await runCli("node", ["start", "-once", "-config-file=config.hcl"], { cwd: tmp.path, env: terraformTestEnv() });
  } finally {
    tmp.remove();
  }
}

/** Starts the daemon with `tasksHcl` and waits, as CTS's ctsSetup does, for its API (the once phase done). */
export async function startCtsDaemon(consul: TestConsulDevServer, prefix: string, tasksHcl: string): Promise<CtsDaemon> {
  const tmp = tempDir(prefix);
  cpSync(join(repoRoot, "test", "fixtures", "cts-modules"), join(tmp.path, "test_modules"), { recursive: true });
  const port = await freePort();
  writeFileSync(join(tmp.path, "config.hcl"), configHcl(tmp.path, consul, port, tasksHcl));
  const child: ChildProcess = spawnCli("node", ["start", "-config-file=config.hcl"], { cwd: tmp.path, env: terraformTestEnv() });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const daemon: CtsDaemon = {
    dir: tmp.path,
    port,
    url,
    output: () => output,
    async events(task) {
      const response = await fetch(`${url}/v1/status/tasks/${task}?include=events`).catch(() => undefined);
      if (!response?.ok) return [];
      return ((await response.json()) as Record<string, { events?: CtsEvent[] }>)[task]?.events ?? [];
    },
    async statusCode(task) {
      return (await fetch(`${url}/v1/status/tasks/${task}`)).status;
    },
    async waitForEvent(task, since, timeoutMs = 60_000) {
      let found: CtsEvent | undefined;
      await waitFor(async () => {
        found = (await daemon.events(task)).find((event) => Date.parse(event.start_time) > since);
        return found !== undefined;
      }, () => `an event of ${task} after ${new Date(since).toISOString()}\n${output.slice(-6000)}`, timeoutMs);
      return found!;
    },
    cli: (args, input = "") => runCli("node", [...args.slice(0, 2), `-http-addr=${url}`, ...args.slice(2)],
      { cwd: tmp.path, input, env: terraformTestEnv() }),
    createTask(hcl, input = "yes\n") {
      writeFileSync(join(tmp.path, "task.hcl"), hcl);
      return daemon.cli(["task", "create", `-task-file=${join(tmp.path, "task.hcl")}`], input);
    },
    taskPath: (task, ...parts) => join(tmp.path, task, ...parts),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      tmp.remove();
    },
  };
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`the daemon exited ${child.exitCode}\n${output}`);
    // CTS's api.WaitForTestReadiness: every enabled task has a status other than "unknown".
    const response = await fetch(`${url}/v1/status/tasks`).catch(() => undefined);
    if (!response?.ok) return false;
    const statuses = Object.values(await response.json() as Record<string, { enabled: boolean; status: string }>);
    return statuses.every((task) => !task.enabled || task.status !== "unknown");
  }, () => `the daemon's API\n${output}`, 90_000);
  return daemon;
}

export async function putKv(consul: TestConsulDevServer, key: string, value: string): Promise<void> {
  const response = await fetch(`${consul.url}/v1/kv/${key}`, { method: "PUT", body: value });
  if (!response.ok) throw new Error(`put ${key}: ${response.status}`);
}

export async function deleteKv(consul: TestConsulDevServer, key: string): Promise<void> {
  const response = await fetch(`${consul.url}/v1/kv/${key}`, { method: "DELETE" });
  if (!response.ok) throw new Error(`delete ${key}: ${response.status}`);
}

/** CTS's `AddAddressableService`: a service with a passing check on its own node. */
export async function registerService(consul: TestConsulDevServer, service: {
  id: string; name: string; address?: string; port?: number; tags?: string[]; status?: "passing" | "critical";
}): Promise<void> {
  const response = await fetch(`${consul.url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({
      ID: service.id, Name: service.name, Address: service.address ?? "", Port: service.port ?? 0, Tags: service.tags ?? [],
      Check: service.status ? { TTL: "10m", Status: service.status } : undefined,
    }),
  });
  if (!response.ok) throw new Error(`register ${service.id}: ${response.status} ${await response.text()}`);
}

export async function deregisterService(consul: TestConsulDevServer, id: string): Promise<void> {
  const response = await fetch(`${consul.url}/v1/agent/service/deregister/${id}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status}`);
}

/** CTS's `testutils.CheckFile`: the file's content, or undefined when it does not exist. */
export function readFile(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}
