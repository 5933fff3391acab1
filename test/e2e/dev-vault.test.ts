/**
 * `cts-runtime dev -vault`: the demo with the embedded Vault beside the embedded Consul. The task's
 * terraform receives the demo secret through its environment (the module writes its sha256 to
 * services.txt.vault); the secret is in the embedded Vault and nowhere under the demo directory.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { type DevDemo, startDevDemo } from "../helpers/dev-demo.ts";
import { waitFor } from "../../harness/driver-terraform/e2e-support.ts";

let dev: DevDemo | undefined;
afterAll(async () => await dev?.stop());

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test("cts-runtime dev -vault: the task gets the demo secret from Vault, and no file holds it", async () => {
  dev = startDevDemo("dev-vault", ["-vault"]);
  const demo = join(dev.dir, "demo");
  const fingerprintFile = join(demo, "services.txt.vault");
  await waitFor(() => existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8").trim() !== "", () => `no fingerprint\n${dev!.output()}`, 90_000);

  const vault = /Embedded Vault:\s+(http:\/\/127\.0\.0\.1:\d+)\s+\(root token (\S+);/.exec(dev.output());
  expect(vault, dev.output()).not.toBeNull();
  const secret = await (await fetch(`${vault![1]}/v1/secret/data/demo`, { headers: { "X-Vault-Token": vault![2]! } })).json();
  const apiKey = secret.data.data.api_key as string;
  expect(readFileSync(fingerprintFile, "utf8").trim()).toBe(createHash("sha256").update(apiKey).digest("hex"));
  expect(readFileSync(join(demo, "cts-demo.hcl"), "utf8")).toContain('{{ with secret \\"secret/demo\\" }}');
  for (const file of filesUnder(demo)) expect(readFileSync(file, "latin1"), file).not.toContain(apiKey);
  expect(dev.output()).not.toContain(apiKey);
  expect(dev.process.exitCode).toBeNull();
}, 120_000);
