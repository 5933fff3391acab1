/**
 * @module What CTS's e2e suite (e2e/utils.go, e2e/config.go) sets up, for the ports under
 * test/e2e/cts/: a Consul with CTS's four services, CTS's base config (DEBUG logs, buffer period
 * off, the terraform driver), the real daemon process (`node dist/main.js start`) run from
 * test/fixtures/cts-e2e so tasks name `./test_modules/<name>` as CTS's do, the CLI run the way
 * `runSubcommand` runs it (stdout and stderr together), and CTS's event counting.
 */
import type { ChildProcess } from "node:child_process";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import { repoRoot, spawnCli } from "../../../harness/run-cli.ts";
import { waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import { terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

/** CTS's e2e task names (e2e/config.go). */
export const dbTaskName = "e2e_task_api_db";
export const webTaskName = "e2e_task_api_web";
export const disabledTaskName = "disabled_task";

/** Where the daemon runs: `./test_modules/...` resolves here, as from CTS's e2e/ directory. */
export const ctsE2eDir = path.join(repoRoot, "test", "fixtures", "cts-e2e");

export const terraformDir = path.dirname(execFileSync("/bin/sh", ["-c", "command -v terraform"], { encoding: "utf8" }).trim());

/** CTS's newTestConsulServer: api, web, db passing and one critical service. */
export async function startCtsConsul(): Promise<TestConsulDevServer> {
  const consul = await startConsulDevServer();
  const services = [
    { ID: "api", Name: "api", Address: "1.2.3.4", Port: 8080, Tags: ["tag1"] },
    { ID: "web", Name: "web", Address: "5.6.7.8", Port: 8000, Tags: ["tag2"] },
    { ID: "db", Name: "db", Address: "10.10.10.10", Port: 8000, Tags: ["tag3", "tag4"] },
    { ID: "unhealthy-service", Name: "unhealthy-service", Address: "1.2.3.4", Port: 8080, Tags: [],
      Check: { TTL: "100s", Status: "critical" } },
  ];
  for (const service of services) await registerService(consul, service);
  return consul;
}

export async function registerService(consul: TestConsulDevServer, service: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify(service) });
  if (!response.ok) throw new Error(`register ${JSON.stringify(service)}: ${response.status} ${await response.text()}`);
}

export async function deregisterService(consul: TestConsulDevServer, id: string): Promise<void> {
  const response = await fetch(`${consul.url}/v1/agent/service/deregister/${id}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status}`);
}

/** CTS's dbTask(), without `providers = ["local"]` (the registry is out of reach; the module needs none). */
export const dbTask = `
task {
  name = "${dbTaskName}"
  description = "basic read-write e2e task for api & db"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api", "db"]
  }
}
`;

export const webTask = `
task {
  name = "${webTaskName}"
  description = "basic read-write e2e task api & web"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api", "web"]
  }
}
`;

export const disabledTask = `
task {
  name = "${disabledTaskName}"
  description = "task is configured as disabled"
  enabled = false
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api", "web"]
  }
}
`;

/** CTS's baseConfig + appendConsulBlock + appendTerraformBlock; `extra` is appended (tasks, tls). */
export function ctsConfig(workingDir: string, consul: TestConsulDevServer, port: number, extra: string): string {
  return `log_level = "DEBUG"
working_dir = "${workingDir}"
port = ${port}

buffer_period {
  enabled = false
}

consul {
  address = "${consul.address}"
}

driver "terraform" {
  log = true
  path = "${terraformDir}"
}
${extra}`;
}

export interface CtsDaemon {
  /** The temp dir holding config.hcl and the tasks' working directories. */
  readonly dir: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>` or `https://...` */
  readonly address: string;
  output(): string;
  stop(): Promise<void>;
}

export interface CtsOutput {
  readonly code: number | null;
  /** stdout and stderr together, as CTS's runSubcommand collects them. */
  readonly output: string;
}

/** A temp dir under the OS temp dir; removed when the test process exits, if the test did not. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `cts-e2e-${prefix}-`));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * CTS's ctsSetup: writes config.hcl with `extra` and starts the daemon, then waits until every
 * enabled task ran once (CTS's WaitForTestReadiness). `scheme` is how clients reach it.
 */
export async function startCtsDaemon(consul: TestConsulDevServer, extra: string, options: { scheme?: "http" | "https" } = {}): Promise<CtsDaemon> {
  const dir = makeTempDir("daemon");
  const port = await freePort();
  const configPath = path.join(dir, "config.hcl");
  mkdirSync(dir, { recursive: true });
  writeFileSync(configPath, ctsConfig(dir, consul, port, extra));
  const child: ChildProcess = spawnCli("node", ["start", `-config-file=${configPath}`], { cwd: ctsE2eDir, env: terraformTestEnv() });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const address = `${options.scheme ?? "http"}://127.0.0.1:${port}`;
  const daemon: CtsDaemon = {
    dir,
    port,
    address,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await waitFor(() => output.includes("all tasks ran once") || child.exitCode !== null, () => output, 90_000);
  if (child.exitCode !== null) throw new Error(`the daemon exited with ${child.exitCode}\n${output}`);
  return daemon;
}

/**
 * The CLI under CTS's name: a `consul-terraform-sync` link to dist/main.js, as the package's bin
 * installs it.
 */
export const ctsProgramLink = (() => {
  const dir = mkdtempSync(path.join(tmpdir(), "cts-e2e-bin-"));
  const link = path.join(dir, "consul-terraform-sync");
  symlinkSync(path.join(repoRoot, "dist", "main.js"), link);
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return link;
})();

export interface SubcommandOptions {
  readonly input?: string;
  readonly env?: Record<string, string>;
  /** Start it as `consul-terraform-sync` (ctsProgramLink) instead of dist/main.js. */
  readonly program?: "consul-terraform-sync";
}

/** CTS's runSubcommand / runSubCommandWithEnvVars: the CLI with `input` on stdin, output merged. */
export async function runSubcommand(args: readonly string[], options: SubcommandOptions = {}): Promise<CtsOutput> {
  const argv = options.program ? [ctsProgramLink, ...args] : [path.join(repoRoot, "dist", "main.js"), ...args];
  return await new Promise((resolve, reject) => {
    // CTS's harness starts the CLI with only the given variables: none of the test runner's CTS_*.
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("CTS_")) env[key] = value;
    const child = spawn(process.execPath, argv, { cwd: ctsE2eDir, env: { ...env, NO_COLOR: "1", ...options.env } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.stdin.end(options.input ?? "");
  });
}

interface TaskStatus {
  readonly enabled: boolean;
  readonly status: string;
  readonly events?: readonly { readonly success: boolean; readonly start_time: string }[];
}

/** GET /v1/status/tasks/<name>?include=events over plain HTTP; undefined for a 404. */
export async function taskStatus(daemon: CtsDaemon, name: string): Promise<TaskStatus | undefined> {
  const response = await fetch(`${daemon.address}/v1/status/tasks/${encodeURIComponent(name)}?include=events`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`status of ${name}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as Record<string, TaskStatus>)[name];
}

/** CTS's eventCount. */
export async function eventCount(daemon: CtsDaemon, name: string): Promise<number> {
  return (await taskStatus(daemon, name))?.events?.length ?? 0;
}

/** Waits until the task has more than `count` events (CTS's api.WaitForEvent after a change). */
export async function waitForEvents(daemon: CtsDaemon, name: string, count: number): Promise<void> {
  await waitFor(async () => (await eventCount(daemon, name)) > count,
    () => `no new event for ${name} after ${count}\n${daemon.output().slice(-4000)}`, 60_000);
}

/** `consul-terraform-sync start ...` run to its end; stdout and stderr together, as CTS's tests read them. */
export function startToEnd(args: readonly string[]): Promise<CtsOutput> {
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

/** `<root>/<name>` holding config.hcl (CTS's base config + `extra`, `driverExtra` in the driver block); returns [dir, config path]. */
export function writeCtsConfig(
  root: string, name: string, consul: TestConsulDevServer, extra: string, driverExtra = "",
): [string, string] {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  let config = ctsConfig(dir, consul, 0, extra);
  if (driverExtra) config = config.replace(/(driver "terraform" \{\n)/, `$1${driverExtra}\n`);
  const file = path.join(dir, "config.hcl");
  writeFileSync(file, config);
  return [dir, file];
}
