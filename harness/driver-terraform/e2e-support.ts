/** @module Shared pieces of the Terraform end-to-end tests: config writing, polling, state reading. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { repoRoot } from "../run-cli.ts";

export const demoModule = join(repoRoot, "examples", "demo", "module");
/** The Terraform modules tests and benches run (test data, kept beside the driver's tests). */
export const testModules = join(repoRoot, "test", "plugins", "driver-terraform", "modules");

export interface E2eTask {
  readonly name: string;
  readonly services: readonly string[];
  /** Defaults to the demo module. */
  readonly module?: string;
}

/** Writes a CTS config (and one tfvars per task naming its output file); returns the config path. */
export function writeE2eConfig(dir: string, consulAddress: string, tasks: readonly E2eTask[]): string {
  mkdirSync(dir, { recursive: true });
  const blocks = tasks.map((task) => {
    writeFileSync(join(dir, `${task.name}.tfvars`), `output_file = ${JSON.stringify(outputFile(dir, task.name))}\n`);
    return `task {
  name           = "${task.name}"
  module         = ${JSON.stringify(task.module ?? demoModule)}
  variable_files = [${JSON.stringify(join(dir, `${task.name}.tfvars`))}]
  condition "services" {
    names = [${task.services.map((s) => JSON.stringify(s)).join(", ")}]
  }
}
`;
  });
  const config = `log_level   = "DEBUG"
port        = 0
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${consulAddress}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
${blocks.join("\n")}`;
  const path = join(dir, "cts.hcl");
  writeFileSync(path, config);
  return path;
}

export function outputFile(dir: string, task: string): string {
  return join(dir, `${task}.txt`);
}

/** The service ids (first column + address) the demo module wrote, or undefined before the first run. */
export function readServiceLines(dir: string, task: string): string[] | undefined {
  try {
    return readFileSync(outputFile(dir, task), "utf8").split("\n").filter(Boolean).map((line) => line.split(/\s+/).slice(0, 2).join(" "));
  } catch {
    return undefined;
  }
}

/** Polls `check` until it returns true; throws with `describe()` after `timeoutMs` (a bound, not an assertion). */
export async function waitFor(check: () => boolean | Promise<boolean>, describe: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export async function registerService(consulUrl: string, id: string, name: string, address: string, port = 80): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/register`, {
    method: "PUT", body: JSON.stringify({ ID: id, Name: name, Address: address, Port: port }),
  });
  if (!response.ok) throw new Error(`register ${id}: ${response.status} ${await response.text()}`);
}

export async function deregisterService(consulUrl: string, id: string): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/deregister/${id}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status} ${await response.text()}`);
}

export interface TerraformState {
  readonly serial: number;
  readonly resources?: readonly {
    readonly module?: string;
    readonly type: string;
    readonly instances: readonly { readonly attributes: Record<string, unknown> }[];
  }[];
}

/** The service list the demo module's `terraform_data` holds in `state` (what it wrote to its file). */
export function demoStateLines(state: TerraformState | undefined): string[] | undefined {
  const resource = state?.resources?.find((r) => r.type === "terraform_data");
  const input = resource?.instances[0]?.attributes.input as { value?: unknown } | string | undefined;
  const text = typeof input === "string" ? input : typeof input?.value === "string" ? input.value : undefined;
  return text?.split("\n").filter(Boolean).map((line) => line.split(/\s+/).slice(0, 2).join(" "));
}

/** The Terraform state the Consul backend stored for `task` (gzip = true), or undefined. */
export async function readTerraformState(consulUrl: string, task: string): Promise<TerraformState | undefined> {
  const response = await fetch(`${consulUrl}/v1/kv/consul-terraform-sync/terraform-env:${task}?raw`);
  if (response.status === 404) return undefined;
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
  return JSON.parse(text);
}
