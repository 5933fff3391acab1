/**
 * What `npm ci && npm start` does: `node dist/main.js dev` as a process. The demo's output file
 * appears with the demo services and follows a later registration made with plain HTTP (the
 * curl the command prints).
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { spawnCli } from "../helpers/run-cli.ts";
import { registerService, waitFor } from "../plugins/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../plugins/driver-terraform/terraform-env.ts";

const tmp = tempDir("dev");
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

test("cts-runtime dev: the demo file appears and follows a registration", async () => {
  dev = spawnCli("node", ["dev", "-dir=demo", "-consul-port=0", "-port=0"], { cwd: tmp.path, env: terraformTestEnv() });
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));

  await waitFor(() => serviceLines().length === 3, () => `demo services never written\n${output}`);
  expect(serviceLines()).toEqual(["api 10.0.0.21:8080", "web 10.0.0.11:80", "web 10.0.0.12:80"]);

  const consulUrl = /Embedded Consul:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  expect(consulUrl, output).toBeDefined();
  expect(output).toContain(`curl -X PUT --data '{"ID":"web-3","Name":"web","Address":"10.0.0.13","Port":80}' ${consulUrl}/v1/agent/service/register`);

  await registerService(consulUrl!, "web-3", "web", "10.0.0.13");
  await waitFor(() => serviceLines().includes("web 10.0.0.13:80"), () => `web-3 never appeared\n${output}`);
  expect(serviceLines()).toEqual(["api 10.0.0.21:8080", "web 10.0.0.11:80", "web 10.0.0.12:80", "web 10.0.0.13:80"]);
  expect(dev.exitCode).toBeNull();
}, 120_000);
