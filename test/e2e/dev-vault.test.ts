/**
 * `cts-runtime dev -vault`: the demo with the embedded Vault beside the embedded Consul. The task's
 * terraform receives the demo secret through its environment (the module writes its sha256 to
 * services.txt.vault); the secret is in the embedded Vault and nowhere under the demo directory.
 */
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { spawnCli } from "../helpers/run-cli.ts";
import { waitFor } from "../plugins/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../plugins/driver-terraform/terraform-env.ts";

const tmp = tempDir("dev-vault");
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test("cts-runtime dev -vault: the task gets the demo secret from Vault, and no file holds it", async () => {
  dev = spawnCli("node", ["dev", "-dir=demo", "-consul-port=0", "-port=0", "-vault"], { cwd: tmp.path, env: terraformTestEnv() });
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));
  const fingerprintFile = join(tmp.path, "demo", "services.txt.vault");
  await waitFor(() => existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8").trim() !== "", () => `no fingerprint\n${output}`, 90_000);

  const vaultUrl = /Embedded Vault:\s+(http:\/\/127\.0\.0\.1:\d+)\s+\(root token (\S+);/.exec(output);
  expect(vaultUrl, output).not.toBeNull();
  const secret = await (await fetch(`${vaultUrl![1]}/v1/secret/data/demo`, { headers: { "X-Vault-Token": vaultUrl![2]! } })).json();
  const apiKey = secret.data.data.api_key as string;
  expect(readFileSync(fingerprintFile, "utf8").trim()).toBe(createHash("sha256").update(apiKey).digest("hex"));
  expect(readFileSync(join(tmp.path, "demo", "cts-demo.hcl"), "utf8")).toContain('{{ with secret \\"secret/demo\\" }}');
  for (const file of filesUnder(join(tmp.path, "demo"))) expect(readFileSync(file, "latin1"), file).not.toContain(apiKey);
  expect(output).not.toContain(apiKey);
  expect(dev.exitCode).toBeNull();
}, 120_000);
