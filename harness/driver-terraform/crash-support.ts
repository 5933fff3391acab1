/**
 * @module Shared pieces of the crash and state-lock tests (issue 11): a config running the `slow`
 * test module, the process table (who still runs in a directory), and the task status API.
 */
import { mkdirSync, readdirSync, readlinkSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outputFile, testModules } from "./e2e-support.ts";

export const slowModule = join(testModules, "slow");

export interface SlowTaskConfig {
  readonly dir: string;
  readonly consulAddress: string;
  readonly task: string;
  readonly services: readonly string[];
  /** API port (0 = any). */
  readonly port?: number;
  /** Seconds the module's provisioner sleeps. */
  readonly applySleep: number;
  /** driver "terraform" lock_timeout; omitted = the default. */
  readonly lockTimeout?: string;
}

/** The file the module appends "started" to when its provisioner begins. */
export const markerFile = (dir: string, task: string): string => join(dir, `${task}.started`);

/** How many applies of `task` reached the provisioner so far. */
export function startedApplies(dir: string, task: string): number {
  try {
    return readFileSync(markerFile(dir, task), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Writes `<dir>/cts.hcl` (and the task's tfvars); returns the config path. */
export function writeSlowConfig(config: SlowTaskConfig): string {
  const { dir, task } = config;
  mkdirSync(dir, { recursive: true });
  const tfvars = join(dir, `${task}.tfvars`);
  writeFileSync(tfvars, `output_file = ${JSON.stringify(outputFile(dir, task))}
apply_sleep = ${config.applySleep}
marker_file = ${JSON.stringify(markerFile(dir, task))}
`);
  const path = join(dir, "cts.hcl");
  writeFileSync(path, `log_level   = "INFO"
port        = ${config.port ?? 0}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${config.consulAddress}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
driver "terraform" {
${config.lockTimeout === undefined ? "" : `  lock_timeout = "${config.lockTimeout}"\n`}}
task {
  name           = "${task}"
  module         = ${JSON.stringify(slowModule)}
  variable_files = [${JSON.stringify(tfvars)}]
  condition "services" {
    names = [${config.services.map((s) => JSON.stringify(s)).join(", ")}]
  }
}
`);
  return path;
}

/** Processes whose working directory is `dir` or below it (Terraform runs in the task's directory). */
export function processesUnder(dir: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** `GET /v1/status/tasks/<task>` of the daemon on `port`, or undefined while it does not answer. */
export async function taskStatus(port: number, task: string): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/status/tasks/${task}`, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) return undefined;
    const body = await response.json() as Record<string, { status?: string }>;
    return body[task]?.status;
  } catch {
    return undefined;
  }
}
