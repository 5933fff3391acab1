/**
 * @module What the ports of CTS's services / catalog-services e2e tests share: a daemon started the way
 * CTS's `ctsSetup` starts it (cwd holding `./test_modules`, a relative working_dir, buffer period off,
 * log_level DEBUG) on Node's dist/main.js against the embedded Consul, plus CTS's e2e checks
 * (`eventCount`, `validateVariable`, `validateModuleFile`) re-expressed over our files and API.
 */
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../../harness/free-port.ts";
import type { CtsEvent } from "./cts-api-support.ts";
import { repoRoot, runCli, spawnCli, type CliResult } from "../../../harness/run-cli.ts";
import { waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

/** Offline stand-ins for CTS's e2e/test_modules and the registry modules its tests use (see the README there). */
export const ctsModules = join(repoRoot, "test", "fixtures", "cts-modules");

export interface CtsDaemon {
  /** The daemon's cwd: `./test_modules/<name>` resolves here, as in CTS's e2e directory. */
  readonly dir: string;
  /** The config's working_dir (CTS's tempDir); a task's files are under `<workDir>/<task>`. */
  readonly workDir: string;
  readonly url: string;
  output(): string;
  events(task: string): Promise<CtsEvent[]>;
  /** `task create -http-addr=… -task-file=…` answering "yes", as CTS's runSubcommand does. */
  createTask(hcl: string): Promise<CliResult>;
  stop(): Promise<void>;
}

export type { CtsEvent };

/** CTS's e2e baseConfig (its `terraform_provider "local"` included: no task lists it, so nothing downloads it) + tasks. */
export function ctsConfig(port: number, consulAddress: string, tasksHcl: string): string {
  return `log_level = "DEBUG"
working_dir = "work"
port = ${port}

buffer_period {
  enabled = false
}

terraform_provider "local" {}

consul {
  address = "${consulAddress}"
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

export async function startCtsDaemon(consulAddress: string, tasksHcl: string): Promise<CtsDaemon> {
  const tmp = tempDir("cts-e2e");
  cpSync(ctsModules, join(tmp.path, "test_modules"), { recursive: true });
  const port = await freePort();
  writeFileSync(join(tmp.path, "config.hcl"), ctsConfig(port, consulAddress, tasksHcl));
  const child: ChildProcess = spawnCli("node", ["start", "-config-file=config.hcl"], {
    cwd: tmp.path, env: terraformTestEnv(),
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const daemon: CtsDaemon = {
    dir: tmp.path,
    workDir: join(tmp.path, "work"),
    url,
    output: () => output,
    async events(task) {
      const response = await fetch(`${url}/v1/status/tasks/${task}?include=events`);
      if (!response.ok) throw new Error(`status of ${task}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as Record<string, { events?: CtsEvent[] }>)[task]?.events ?? [];
    },
    async createTask(hcl) {
      const file = join(tmp.path, "task.hcl");
      writeFileSync(file, hcl);
      return runCli("node", ["task", "create", `-http-addr=${url}`, `-task-file=${file}`], {
        cwd: tmp.path, input: "yes\n", env: terraformTestEnv(), timeoutMs: 120_000,
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("close", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!process.env.CTS_E2E_KEEP) tmp.remove();
    },
  };
  await waitForTestReadiness(url, () => output);
  return daemon;
}

/** CTS's api.WaitForTestReadiness: the status API answers and no enabled task's status is still "unknown". */
export async function waitForTestReadiness(url: string, output: () => string): Promise<void> {
  await waitFor(async () => {
    const response = await fetch(`${url}/v1/status/tasks`).catch(() => undefined);
    if (!response?.ok) return false;
    const statuses = Object.values(await response.json() as Record<string, { enabled: boolean; status: string }>);
    return statuses.every((task) => !task.enabled || task.status !== "unknown");
  }, () => `the daemon's tasks never all ran once\n${output()}`, 120_000);
}

/** The ids of `task`'s stored events (CTS keeps the latest 5), to tell a new event from old ones. */
export async function eventIds(daemon: CtsDaemon, task: string): Promise<Set<string>> {
  return new Set((await daemon.events(task)).map((event) => event.id));
}

/** Waits for an event of `task` that is not among `before` (works past the 5-event limit). */
export async function waitForNewEvent(daemon: CtsDaemon, task: string, before: Set<string>): Promise<void> {
  let events: CtsEvent[] = [];
  await waitFor(async () => (events = await daemon.events(task)).some((event) => !before.has(event.id)),
    () => `${task} has no new event (${events.length} stored)\n${daemon.output()}`, 120_000);
}

/** Waits until `task` has more than `count` events; returns them (newest first, as CTS lists them). */
export async function waitForEvents(daemon: CtsDaemon, task: string, count: number): Promise<CtsEvent[]> {
  let events: CtsEvent[] = [];
  await waitFor(async () => (events = await daemon.events(task)).length > count,
    () => `${task} still has ${events.length} event(s), waiting for more than ${count}\n${daemon.output()}`, 120_000);
  return events;
}

/**
 * CTS's validateVariable: terraform.tfvars split at blank lines, the preamble skipped, the block that
 * starts with `name`; undefined when no such variable is rendered.
 */
export function tfvarsVariable(daemon: CtsDaemon, task: string, name: string): string | undefined {
  const content = readFileSync(join(daemon.workDir, task, "terraform.tfvars"), "utf8");
  return content.split("\n\n").slice(1).map((v) => v.replace(/^\n+/, "")).find((v) => v.startsWith(name));
}

/** The content of `<workDir>/<task>/resources/<name>.txt`, or undefined when the module did not write it. */
export function resourceFile(daemon: CtsDaemon, task: string, name: string): string | undefined {
  const path = join(daemon.workDir, task, "resources", `${name}.txt`);
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/** CTS's testutils.RegisterConsulService: an agent registration (no address: the node's is used). */
export async function registerCtsService(consulUrl: string, service: { ID: string; Name: string; Tags?: string[] }): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify(service) });
  if (!response.ok) throw new Error(`register ${service.ID}: ${response.status} ${await response.text()}`);
}

/**
 * CTS's e2e newTestConsulServer: the Consul its seeded tests start with (AddAddressableService api, web,
 * db passing; unhealthy-service critical), registered in the catalog with the health of each.
 */
export async function seedCtsServices(consul: { url: string; node: string }): Promise<void> {
  const seeds: [string, string, string, number, string[]][] = [
    ["api", "passing", "1.2.3.4", 8080, ["tag1"]],
    ["web", "passing", "5.6.7.8", 8000, ["tag2"]],
    ["db", "passing", "10.10.10.10", 8000, ["tag3", "tag4"]],
    ["unhealthy-service", "critical", "1.2.3.4", 8080, []],
  ];
  for (const [name, status, address, port, tags] of seeds) {
    const response = await fetch(`${consul.url}/v1/catalog/register`, {
      method: "PUT",
      body: JSON.stringify({
        Node: consul.node, Address: "127.0.0.1",
        Service: { ID: name, Service: name, Address: address, Port: port, Tags: tags },
        Check: { CheckID: `service:${name}`, Name: name, ServiceID: name, Status: status },
      }),
    });
    if (!response.ok) throw new Error(`seed ${name}: ${response.status} ${await response.text()}`);
  }
}

export async function deregisterCtsService(consulUrl: string, id: string): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/deregister/${id}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status} ${await response.text()}`);
}

/** CTS's testInvalidTaskConfig start-up flavour: `start -config-file=… -once` with one task, to completion. */
export async function runCtsOnce(consulAddress: string, tasksHcl: string): Promise<CliResult> {
  const tmp = tempDir("cts-e2e-once");
  try {
    cpSync(ctsModules, join(tmp.path, "test_modules"), { recursive: true });
    writeFileSync(join(tmp.path, "config.hcl"), ctsConfig(0, consulAddress, tasksHcl));
    return await runCli("node", ["start", "-config-file=config.hcl", "-once"], {
      cwd: tmp.path, env: terraformTestEnv(), timeoutMs: 120_000,
    });
  } finally {
    tmp.remove();
  }
}
