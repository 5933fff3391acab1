/** @module Shared pieces of the terraform-cloud driver tests: the dev server's API, a module, state reading. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DriverConfig, ServiceInstance, TaskConfig, TaskInputs } from "../../core/plugin-api/mod.ts";
import type { TfcDevServer } from "../../dev-servers/tfc/mod.ts";
import { testConfig } from "../../core/plugin-testkit/src/test-config.ts";

/** One API call; a 429 (the server enforces HCP Terraform's rate limit, which the driver shares) is waited out as clients do. */
export async function tfcApi(server: TfcDevServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status === 429 && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("x-ratelimit-reset") ?? 1) * 1000 + 20));
      continue;
    }
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
}

/** A module that keeps the service ids it was given in a terraform_data resource. */
export function writeModule(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tfc-driver-module-"));
  writeFileSync(join(dir, "main.tf"), `variable "services" {
  type = map(any)
}
variable "label" {
  type    = string
  default = ""
}
resource "terraform_data" "ids" {
  input = { ids = sort(keys(var.services)), label = var.label }
}
output "ids" {
  value = terraform_data.ids.output
}
`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function instance(id: string, address = "10.0.0.1"): ServiceInstance {
  return {
    id, name: "web", kind: "", address, port: 80, meta: {}, tags: [], namespace: "", status: "passing",
    node: "node-1", node_id: "n1", node_address: address, node_datacenter: "dc1", node_tagged_addresses: {},
    node_meta: {}, cts_user_defined_meta: {},
  };
}

export function inputsOf(...ids: string[]): TaskInputs {
  return { services: Object.fromEntries(ids.map((id) => [`${id}.node-1.dc1`, instance(id)])) };
}

export function driverBlock(server: TfcDevServer, extra: Record<string, unknown> = {}): DriverConfig {
  return { name: "terraform-cloud", options: { hostname: server.url, organization: server.organization, token: server.token, ...extra } };
}

export function task(name: string, module: string, extra: Partial<TaskConfig> = {}): TaskConfig {
  const base = testConfig();
  return {
    name, description: `task ${name}`, enabled: true, providers: [], module, version: "", variables: {}, variable_files: [],
    working_dir: "", buffer_period: base.buffer_period, buffer_period_configured: false,
    condition: { type: "services", names: ["web"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {}, use_as_module_input: true },
    module_input: [], driver: "terraform-cloud", ...extra,
  } as TaskConfig;
}

/** Workspace by name, through the API. */
export async function workspace(server: TfcDevServer, name: string): Promise<any | undefined> {
  const answer = await tfcApi(server, "GET", `/organizations/${server.organization}/workspaces/${name}`);
  return answer.status === 200 ? answer.body.data : undefined;
}

export async function runsOf(server: TfcDevServer, workspaceId: string): Promise<any[]> {
  return (await tfcApi(server, "GET", `/workspaces/${workspaceId}/runs`)).body.data;
}

/** The service ids (the part of each `services` key before the node) the module's resource holds in the workspace's current state. */
export async function stateIds(server: TfcDevServer, workspaceId: string): Promise<string[] | undefined> {
  const current = await tfcApi(server, "GET", `/workspaces/${workspaceId}/current-state-version`);
  if (current.status !== 200) return undefined;
  const state = await (await fetch(current.body.data.attributes["hosted-state-download-url"])).json() as any;
  const resource = state.resources.find((r: any) => r.type === "terraform_data" && r.name === "ids");
  // terraform_data's dynamic output is stored as {value, type}.
  const output = resource?.instances[0]?.attributes?.output;
  const keys: string[] | undefined = output?.value?.ids ?? output?.ids;
  return keys?.map((key) => key.split(".")[0]!);
}
