/**
 * Rotating secrets end to end (issue 30 item 1, CTS#530 "monitor Vault for updated values"): the
 * real daemon, the embedded Consul and Vault, real Terraform. A task whose provider block reads a
 * KV v2 secret, and one that reads none. A new version of the secret runs exactly the task that
 * uses it, once, with the new value (Terraform is given it: a wrapper records its hash), with the
 * trigger `secret rotated: <path> (version 2)`; the other task does not run. Neither value is in
 * any log line, API answer or file, and where Terraform printed the old value the log says
 * `<redacted>`. CTS reads secrets once at start; the rotation needs no restart.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { freePort } from "../../harness/free-port.ts";
import { until } from "../../harness/until.ts";
import { registerService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const tmp = tempDir("secret-rotation");
const dir = tmp.path;
const oldPassword = `old-${randomBytes(12).toString("hex")}`;
const newPassword = `new-${randomBytes(12).toString("hex")}`;
let consul: TestConsulDevServer;
let vault: VaultDevServer;
let daemon: DaemonProcess;
let api = "";

/** Prints the password, so that Terraform's output holds it (the daemon logs that output). */
const MODULE = `variable "services" {
  type = any
}
resource "terraform_data" "proof" {
  input = keys(var.services)
  provisioner "local-exec" {
    command = "echo \\"password is $APP_PASSWORD\\""
  }
}
`;

/** The real terraform; each apply appends "<task> <sha256 of APP_PASSWORD>" to applies.log. */
const WRAPPER = `#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = apply ]; then
    printf '%s %s\\n' "$(basename "$PWD")" "$(printf %s "$APP_PASSWORD" | sha256sum | cut -d' ' -f1)" >> ${join(dir, "applies.log")}
  fi
done
exec terraform "$@"
`;

function config(port: number): string {
  const task = (name: string, providers: string) => `task {
  name      = "${name}"
  module    = ${JSON.stringify(join(dir, "module"))}
  providers = [${providers}]
  condition "services" {
    names = ["web"]
  }
}
`;
  return `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vault.url}"
  token   = "${vault.rootToken}"
}
plugin "vault-client" {
  options = {
    check_interval = "1s"
  }
}
driver "terraform" {
  path = ${JSON.stringify(join(dir, "terraform-wrapper.sh"))}
  log  = true
}
buffer_period {
  enabled = false
}
terraform_provider "terraform" {
  task_env {
    "APP_PASSWORD" = "{{ with secret \\"secret/app\\" }}{{ .Data.data.password }}{{ end }}"
  }
}
${task("uses-secret", `"terraform"`)}${task("no-secret", "")}`;
}

async function runs(task: string): Promise<RunRecord[]> {
  const answer = await fetch(`${api}/v1/tasks/${task}/runs?limit=50`);
  return answer.ok ? ((await answer.json()) as { runs: RunRecord[] }).runs : [];
}

const ended = async (task: string) => (await runs(task)).filter((run) => run.outcome !== "running" && run.outcome !== "skipped");
const applies = () => (existsSync(join(dir, "applies.log")) ? readFileSync(join(dir, "applies.log"), "utf8").trim().split("\n") : []);

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  return readdirSync(path).flatMap((name) => {
    const child = join(path, name);
    return statSync(child).isDirectory() ? filesUnder(child) : [child];
  });
}

async function bounded<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 120_000): Promise<T> {
  try {
    return await until(what, probe, limitMs, 100);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${daemon.output().slice(-8000)}`);
  }
}

beforeAll(async () => {
  consul = await startConsulDevServer();
  vault = await startVaultDevServer();
  await fetch(`${vault.url}/v1/secret/data/app`, {
    method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { password: oldPassword } }),
  });
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(join(dir, "module"));
  writeFileSync(join(dir, "module", "main.tf"), MODULE);
  writeFileSync(join(dir, "terraform-wrapper.sh"), WRAPPER);
  chmodSync(join(dir, "terraform-wrapper.sh"), 0o755);
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, "cts.hcl"), config(port));
  daemon = startDaemon("node", join(dir, "cts.hcl"), { cwd: dir, env: terraformTestEnv() });
  await waitForDaemon(daemon, async () => (await fetch(`${api}/v1/status`)).ok, 60_000);
}, 90_000);

afterAll(async () => {
  await daemon?.stop();
  await vault?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("a secret rotated in Vault", () => {
  it("runs exactly the task that uses it, once, with the new value, and the old value is nowhere", async () => {
    await bounded("both start-up runs", async () => ((await ended("uses-secret")).length === 1 && (await ended("no-secret")).length === 1 ? true : undefined));
    expect(applies()).toEqual([`uses-secret ${sha256(oldPassword)}`, `no-secret ${sha256("")}`]);
    expect(daemon.output()).toContain("password is <redacted>");

    await fetch(`${vault.url}/v1/secret/data/app`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { password: newPassword } }),
    });
    const rotated = await bounded("the rotation's run", async () => {
      const list = await ended("uses-secret");
      return list.length >= 2 ? list[0] : undefined;
    });
    expect(rotated.outcome).toBe("applied");
    expect(rotated.trigger).toEqual({ kind: "secret", detail: "secret rotated: secret/app (version 2)" });
    // The watch goes on and finds nothing new: no second run comes from this rotation.
    const checksBefore = daemon.output().split("secret checked, unchanged").length;
    await bounded("a later check of the secret", async () => (daemon.output().split("secret checked, unchanged").length > checksBefore ? true : undefined));
    expect((await ended("uses-secret")).map((run) => run.trigger.kind)).toEqual(["secret", "startup"]);
    expect((await ended("no-secret")).map((run) => run.trigger.kind)).toEqual(["startup"]);
    expect(applies()).toEqual([`uses-secret ${sha256(oldPassword)}`, `no-secret ${sha256("")}`, `uses-secret ${sha256(newPassword)}`]);

    const output = daemon.output();
    expect(output).toMatch(/secret rotated: path=secret\/app cause=version version=2/);
    expect(output).toMatch(/a secret the task uses rotated, running it again: .*task_name=uses-secret/);
    const answers = await Promise.all([
      "/v1/status/tasks?include=events", "/v1/tasks/uses-secret", "/v1/tasks/uses-secret/runs?limit=50", "/v1/status", "/metrics",
    ].map(async (path) => await (await fetch(`${api}${path}`)).text()));
    const files = filesUnder(join(dir, "sync-tasks")).map((path) => readFileSync(path, "latin1"));
    expect(files.length).toBeGreaterThan(5);
    for (const secret of [oldPassword, newPassword]) {
      expect(output).not.toContain(secret);
      for (const answer of answers) expect(answer).not.toContain(secret);
      for (const content of files) expect(content).not.toContain(secret);
    }
  }, 240_000);
});
