/**
 * `cts-runtime dev -driver=terraform-cloud` as a process: the embedded Consul and the embedded HCP
 * Terraform server side by side; the demo task runs in a workspace (whose run executes the demo
 * module locally, writing services.txt) and follows a registration.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { type DevDemo, startDevDemo } from "../../helpers/dev-demo.ts";
import { runCli } from "../../../harness/run-cli.ts";
import { registerService, waitFor } from "../../../harness/driver-terraform/e2e-support.ts";

let dev: DevDemo | undefined;
afterAll(async () => await dev?.stop());

test("dev -driver=terraform-cloud: the demo runs in a workspace of the embedded HCP Terraform server", async () => {
  dev = startDevDemo("dev-tfc", ["-driver=terraform-cloud"]);
  const output = () => dev!.output();

  await waitFor(() => dev!.serviceLines().length === 3, () => `demo services never written\n${output()}`);
  const tfcUrl = /HCP Terraform \(dev\): (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
  const token = /token (\S+)\)/.exec(output())?.[1];
  expect(tfcUrl, output()).toBeDefined();
  expect(output()).toContain(`Workspace:           ${tfcUrl}/app/cts-dev/workspaces/cts-demo-services`);
  // The printed link is a page (read only), listing the workspace's runs, each a page too.
  const page = await fetch(`${tfcUrl}/app/cts-dev/workspaces/cts-demo-services`);
  expect(page.status).toBe(200);
  const runPath = /href="(\/app\/cts-dev\/workspaces\/cts-demo-services\/runs\/run-[^"]+)"/.exec(await page.text())?.[1];
  expect(runPath).toBeDefined();
  expect(await (await fetch(`${tfcUrl}${runPath}`)).text()).toContain("Plan log");
  const ws = await fetch(`${tfcUrl}/api/v2/organizations/cts-dev/workspaces/cts-demo-services`, { headers: { authorization: `Bearer ${token}` } });
  expect(ws.status).toBe(200);
  // The demo config holds no token: the daemon gets it through TFC_TOKEN.
  expect(readFileSync(join(dev.dir, "demo", "cts-demo.hcl"), "utf8")).not.toContain(token!);

  const consulUrl = /Embedded Consul:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
  await registerService(consulUrl!, "web-3", "web", "10.0.0.13");
  await waitFor(() => dev!.serviceLines().includes("web 10.0.0.13:80"), () => `web-3 never appeared\n${output()}`);
  expect(dev.process.exitCode).toBeNull();
}, 120_000);

test("dev refuses an unknown -driver", async () => {
  const result = await runCli("node", ["dev", "-driver=nope", "-dir=demo2"], { cwd: tmpdir() }); // refused before it writes anything
  expect(result.code).toBe(14);
  expect(result.stderr).toContain(`-driver must be one of terraform, terraform-cloud, got "nope"`);
});
