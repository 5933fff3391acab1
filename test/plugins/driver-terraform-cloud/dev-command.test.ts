/**
 * `cts-runtime dev -driver=terraform-cloud` as a process: the embedded Consul and the embedded HCP
 * Terraform server side by side; the demo task runs in a workspace (whose run executes the demo
 * module locally, writing services.txt) and follows a registration.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { runCli, spawnCli } from "../../helpers/run-cli.ts";
import { registerService, waitFor } from "../driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../driver-terraform/terraform-env.ts";

const tmp = tempDir("dev-tfc");
let dev: ChildProcess | undefined;
let output = "";

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once("exit", resolve));
    dev.kill("SIGINT");
    await exited;
  }
  tmp.remove();
});

function serviceLines(): string[] {
  try {
    return readFileSync(join(tmp.path, "demo", "services.txt"), "utf8").split("\n").filter(Boolean)
      .map((line) => line.split(/\s+/).slice(0, 2).join(" "));
  } catch {
    return [];
  }
}

test("dev -driver=terraform-cloud: the demo runs in a workspace of the embedded HCP Terraform server", async () => {
  dev = spawnCli("node", ["dev", "-driver=terraform-cloud", "-dir=demo", "-consul-port=0", "-port=0"], { cwd: tmp.path, env: terraformTestEnv() });
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));

  await waitFor(() => serviceLines().length === 3, () => `demo services never written\n${output}`);
  const tfcUrl = /HCP Terraform \(dev\): (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  const token = /token (\S+)\)/.exec(output)?.[1];
  expect(tfcUrl, output).toBeDefined();
  expect(output).toContain(`Workspace:           ${tfcUrl}/app/cts-dev/workspaces/cts-demo-services`);
  const ws = await fetch(`${tfcUrl}/api/v2/organizations/cts-dev/workspaces/cts-demo-services`, { headers: { authorization: `Bearer ${token}` } });
  expect(ws.status).toBe(200);
  // The demo config holds no token: the daemon gets it through TFC_TOKEN.
  expect(readFileSync(join(tmp.path, "demo", "cts-demo.hcl"), "utf8")).not.toContain(token!);

  const consulUrl = /Embedded Consul:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  await registerService(consulUrl!, "web-3", "web", "10.0.0.13");
  await waitFor(() => serviceLines().includes("web 10.0.0.13:80"), () => `web-3 never appeared\n${output}`);
  expect(dev.exitCode).toBeNull();
}, 120_000);

test("dev refuses an unknown -driver", async () => {
  const result = await runCli("node", ["dev", "-driver=nope", "-dir=demo2"], { cwd: tmp.path });
  expect(result.code).toBe(14);
  expect(result.stderr).toContain(`-driver must be one of terraform, terraform-cloud, got "nope"`);
});
