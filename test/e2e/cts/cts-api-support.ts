/**
 * @module Shared pieces of the ports of CTS's e2e/api_test.go, tasks_test.go and registration_test.go:
 * the Consul catalog CTS's newTestConsulServer seeds, CTS's baseConfig, a daemon started as a CTS user
 * starts it (the real CLI under Node, real terraform), and CTS's readiness and event waits.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { repoRoot, spawnCli } from "../../../harness/run-cli.ts";
import { until as pollUntil } from "../../../harness/until.ts";
import { terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

/** The stand-ins for CTS's e2e/test_modules (terraform_data + local-exec only: no registry here). */
export const ctsModules = join(repoRoot, "test", "fixtures", "cts-e2e-api");

export interface ServiceSpec {
  readonly ID: string;
  readonly Name: string;
  readonly Address?: string;
  readonly Port?: number;
  readonly Tags?: readonly string[];
  readonly status?: "passing" | "critical";
}

export async function registerService(consulUrl: string, service: ServiceSpec): Promise<void> {
  const { status, ...body } = service;
  const check = status ? { Check: { CheckID: `${service.ID}-check`, TTL: "10m", Status: status } } : {};
  const response = await fetch(`${consulUrl}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify({ ...body, ...check }) });
  if (!response.ok) throw new Error(`register ${service.ID}: ${response.status} ${await response.text()}`);
}

export async function deregisterService(consulUrl: string, id: string): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/deregister/${id}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status} ${await response.text()}`);
}

/** What CTS's newTestConsulServer registers before each test. */
export async function seedCtsCatalog(consulUrl: string): Promise<void> {
  await registerService(consulUrl, { ID: "api", Name: "api", Address: "1.2.3.4", Port: 8080, Tags: ["tag1"], status: "passing" });
  await registerService(consulUrl, { ID: "web", Name: "web", Address: "5.6.7.8", Port: 8000, Tags: ["tag2"], status: "passing" });
  await registerService(consulUrl, { ID: "db", Name: "db", Address: "10.10.10.10", Port: 8000, Tags: ["tag3", "tag4"], status: "passing" });
  await registerService(consulUrl, { ID: "unhealthy-service", Name: "unhealthy-service", Address: "1.2.3.4", Port: 8080, status: "critical" });
}

/**
 * CTS's baseConfig + appendConsulBlock + appendTerraformBlock (plain HTTP Consul). As in CTS's e2e,
 * the driver's `path` is the directory the daemon runs in, which holds no terraform: CTS would
 * download one there; this runtime takes the one on PATH.
 */
export function ctsBaseConfig(workingDir: string, consulAddress: string, consulExtra = ""): string {
  return `log_level = "DEBUG"
working_dir = "${workingDir}"

buffer_period {
  enabled = false
}

consul {
  address = "${consulAddress}"
  ${consulExtra}
}

driver "terraform" {
  log  = true
  path = "${ctsModules}"
}
`;
}

/** CTS's moduleTaskConfig: a task on services api and web. */
export function moduleTask(name: string, module: string, extra = ""): string {
  return `
task {
  name        = "${name}"
  description = "e2e test"
  module      = "${module}"
  condition "services" {
    names = ["api", "web"]
  }
  ${extra}
}
`;
}

export interface CtsDaemon {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  output(): string;
  /** SIGINT (what CTS's StartCTS stop sends); resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `start -config-file=<configPath>` with cwd `cwd` (relative module paths resolve there, as
 * CTS's tests run from e2e/); the config sets `port = <port>`. */
export function startCtsDaemon(configPath: string, cwd: string, port: number, flags: readonly string[] = []): CtsDaemon {
  const args = ["start", ...flags, `--config-file=${configPath}`];
  const chosen = port;
  const child = spawnCli("node", args, { cwd, env: terraformTestEnv() });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    url: `http://127.0.0.1:${chosen}`,
    port: chosen,
    process: child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      return await exited;
    },
  };
}

/** Polls `probe` every 150 ms until it returns something other than undefined (a bound, not a timed assertion). */
export function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  return pollUntil(what, probe, timeoutMs, 150);
}

export interface CtsEvent {
  readonly id: string;
  readonly success: boolean;
  readonly start_time: string;
  readonly end_time: string;
  readonly task_name: string;
  readonly error?: { message: string } | null;
  readonly config?: { providers: string[]; services: string[]; source: string };
}

export interface CtsTaskStatus {
  readonly task_name: string;
  readonly status: string;
  readonly enabled: boolean;
  readonly events_url: string;
  readonly providers: string[];
  readonly services: string[];
  readonly events?: CtsEvent[];
}

export async function taskStatuses(daemon: CtsDaemon, query = ""): Promise<Record<string, CtsTaskStatus>> {
  const response = await fetch(`${daemon.url}/v1/status/tasks${query}`);
  if (!response.ok) throw new Error(`status/tasks${query}: ${response.status} ${await response.text()}`);
  return await response.json() as Record<string, CtsTaskStatus>;
}

/** CTS's WaitForTestReadiness: the API answers and no enabled task is still "unknown". */
export async function waitForReadiness(daemon: CtsDaemon, timeoutMs = 90_000): Promise<void> {
  await until(`readiness\n${daemon.output()}`, async () => {
    if (daemon.process.exitCode !== null) throw new Error(`the daemon exited ${daemon.process.exitCode}\n${daemon.output()}`);
    const statuses = await taskStatuses(daemon).catch(() => undefined);
    if (!statuses) return undefined;
    return Object.values(statuses).some((s) => s.enabled && s.status === "unknown") ? undefined : true;
  }, timeoutMs);
}

/** CTS's WaitForEvent: the task's newest event started and ended after `since`. */
export async function waitForEvent(daemon: CtsDaemon, task: string, since: number, timeoutMs = 60_000): Promise<CtsEvent> {
  return await until(`a new event of ${task}\n${daemon.output()}`, async () => {
    const statuses = await taskStatuses(daemon, `/${task}?include=events`).catch(() => undefined);
    const newest = statuses?.[task]?.events?.[0];
    return newest && Date.parse(newest.start_time) > since && Date.parse(newest.end_time) > since ? newest : undefined;
  }, timeoutMs);
}

/** The number of events `task` has (CTS's eventCount). */
export async function eventCount(daemon: CtsDaemon, task: string): Promise<number> {
  const statuses = await taskStatuses(daemon, `/${task}?include=events`);
  return statuses[task]?.events?.length ?? 0;
}
