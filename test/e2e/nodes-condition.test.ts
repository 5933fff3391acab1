/**
 * `condition "nodes"` and `module_input "nodes"` (the built-in plugins/condition-nodes) in the real
 * daemon on Node, with the embedded Consul and the real terraform: a node joining, leaving or
 * changing runs the task whose condition watches it (filter), and its module writes the node list; a
 * `nodes` module input (node_meta) hands the list over without running its task. The generated
 * variables.tf, terraform.tfvars and terraform.tfvars.tmpl are CTS-style. Beyond CTS, which never
 * merged its nodes condition (CTS PR #358).
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { spawnCli } from "../../harness/run-cli.ts";
import { registerService, testModules, waitFor } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

async function registerNode(consulUrl: string, node: string, address: string, meta: Record<string, string>): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/catalog/register`, {
    method: "PUT",
    body: JSON.stringify({ Node: node, Address: address, NodeMeta: meta, TaggedAddresses: { lan: address, wan: "198.51.100.7" } }),
  });
  if (!response.ok) throw new Error(`register ${node}: ${response.status} ${await response.text()}`);
}

async function deregisterNode(consulUrl: string, node: string): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/catalog/deregister`, { method: "PUT", body: JSON.stringify({ Node: node }) });
  if (!response.ok) throw new Error(`deregister ${node}: ${response.status} ${await response.text()}`);
}

describe("the nodes condition and module input in the daemon with terraform", () => {
  let consul: TestConsulDevServer;
  let daemon: ChildProcess;
  let logs = "";
  const tmp = tempDir("nodes");
  const outputOf = (task: string) => join(tmp.path, `${task}.txt`);
  const lines = (task: string): string[] | undefined => {
    try {
      return readFileSync(outputOf(task), "utf8").split("\n").filter(Boolean);
    } catch {
      return undefined;
    }
  };
  const follow = (task: string, expected: string[]) =>
    waitFor(() => JSON.stringify(lines(task)) === JSON.stringify(expected),
      () => `${task}: ${JSON.stringify(lines(task))} != ${JSON.stringify(expected)}\n${logs}`);
  const generated = (task: string, file: string) => readFileSync(join(tmp.path, "sync-tasks", task, file), "utf8");
  // The task manager logs each run's end once (the startup pass adds CTS's "ctrl: task completed" too).
  const runsOf = (task: string) =>
    logs.split("\n").filter((line) => line.includes("tasksmanager: task completed") && line.includes(`task_name=${task}`)).length;
  let dc = "";

  beforeAll(async () => {
    consul = await startConsulDevServer();
    dc = consul.datacenter;
    await registerNode(consul.url, "edge-1", "10.1.0.1", { role: "edge", rack: "r1" });
    await registerService(consul.url, "web-1", "web", "10.0.0.1");
    const task = (name: string, blocks: string) => {
      writeFileSync(join(tmp.path, `${name}.tfvars`), `output_file = ${JSON.stringify(outputOf(name))}\n`);
      return `task {
  name           = "${name}"
  module         = ${JSON.stringify(join(testModules, "nodes"))}
  variable_files = [${JSON.stringify(join(tmp.path, `${name}.tfvars`))}]
${blocks}
}
`;
    };
    const config = join(tmp.path, "cts.hcl");
    writeFileSync(config, `log_level   = "DEBUG"
port        = 0
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
${task("edge-nodes", `  condition "nodes" {
    filter = "Meta.role == \\"edge\\""
  }`)}
${task("web-nodes", `  condition "services" {
    names = ["web"]
  }
  module_input "nodes" {
    node_meta = { role = "edge", rack = "r2" }
  }`)}`);
    daemon = spawnCli("node", ["start", `-config-file=${config}`], { cwd: tmp.path, env: terraformTestEnv() });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
  });

  afterAll(async () => {
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once("exit", resolve));
      daemon.kill("SIGTERM");
      await exited;
    }
    await consul?.stop();
    tmp.remove();
  });

  it("the first runs write the filtered node list; the module input's task gets only the nodes matching its node_meta", async () => {
    await follow("edge-nodes", [`edge-1 10.1.0.1 ${dc} 198.51.100.7 rack=r1,role=edge`]);
    await follow("web-nodes", []);
    // Logged once the run ended (after the module wrote its file): later counts compare against this.
    await waitFor(() => runsOf("web-nodes") === 1, () => logs);
  }, 120_000);

  it("a node joining runs the nodes task; the module input's task does not run for it", async () => {
    const webRuns = runsOf("web-nodes");
    await registerNode(consul.url, "edge-2", "10.1.0.2", { role: "edge", rack: "r2" });
    await registerNode(consul.url, "core-1", "10.2.0.1", { role: "core", rack: "r2" });
    await follow("edge-nodes", [
      `edge-1 10.1.0.1 ${dc} 198.51.100.7 rack=r1,role=edge`,
      `edge-2 10.1.0.2 ${dc} 198.51.100.7 rack=r2,role=edge`,
    ]);
    expect(runsOf("web-nodes")).toBe(webRuns);
    // The services condition runs it; the run then carries the nodes its module input watches.
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    await follow("web-nodes", [`edge-2 10.1.0.2 ${dc} 198.51.100.7 rack=r2,role=edge`]);
  }, 120_000);

  it("a node changing its metadata, then leaving, runs the task each time", async () => {
    await registerNode(consul.url, "edge-1", "10.1.0.9", { role: "edge", rack: "r3" });
    await follow("edge-nodes", [
      `edge-1 10.1.0.9 ${dc} 198.51.100.7 rack=r3,role=edge`,
      `edge-2 10.1.0.2 ${dc} 198.51.100.7 rack=r2,role=edge`,
    ]);
    await deregisterNode(consul.url, "edge-1");
    await follow("edge-nodes", [`edge-2 10.1.0.2 ${dc} 198.51.100.7 rack=r2,role=edge`]);
  }, 120_000);

  it("variables.tf, terraform.tfvars and terraform.tfvars.tmpl are CTS-style", () => {
    expect(generated("edge-nodes", "variables.tf")).toContain(`# Nodes definition protocol v0
variable "nodes" {
  description = "Consul catalog nodes watched by the task's nodes condition or module input"
  type = list(object({
    id               = string
    node             = string
    address          = string
    datacenter       = string
    tagged_addresses = map(string)
    meta             = map(string)
  }))
}
`);
    expect(generated("edge-nodes", "main.tf")).toMatch(/  services = var\.services\n  nodes    = var\.nodes\n/);
    const tfvars = generated("edge-nodes", "terraform.tfvars");
    expect(tfvars).toMatch(new RegExp(`\n\nnodes = \\[\n  \\{\n    id         = "[0-9a-f-]{36}"\n    node       = "edge-2"\n` +
      `    address    = "10\\.1\\.0\\.2"\n    datacenter = "${dc}"\n    tagged_addresses = \\{\n      lan = "10\\.1\\.0\\.2"\n` +
      `      wan = "198\\.51\\.100\\.7"\n    \\}\n    meta = \\{\n      rack = "r2"\n      role = "edge"\n    \\}\n  \\},\n\\]\n\nservices = \\{\n\\}\n$`));
    expect(generated("edge-nodes", "terraform.tfvars.tmpl")).toContain(`\nnodes = [\n{{- range nodes "Meta.role == \\"edge\\"" }}`);
    expect(generated("web-nodes", "terraform.tfvars.tmpl")).toContain(`{{- range nodes "node-meta=rack:r2" "node-meta=role:edge" }}`);
  });
});
