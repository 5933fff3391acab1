/**
 * Vault secrets end to end, as a CTS user writes them: the daemon (real CLI process, embedded
 * Consul, embedded Vault, real terraform) resolves `{{ with secret }}` in terraform_provider
 * blocks at start. A KV v2 secret in `task_env` reaches the module's local-exec (it writes only a
 * hash); a KV v1 secret in a provider argument reaches terraform as TF_VAR_<provider> (a wrapper
 * records a hash). Then no log line, API answer, event or file under working_dir holds either
 * secret. A Vault that is down, and a field the secret lacks, fail with errors naming what failed.
 */
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { runCli, spawnCli } from "../../harness/run-cli.ts";
import { registerService, waitFor } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function writeModule(dir: string, proofFile: string): string {
  const module = join(dir, "module");
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, "main.tf"), `variable "services" {
  type = any
}
resource "terraform_data" "proof" {
  input = keys(var.services)
  provisioner "local-exec" {
    command = "printf %s \\"$APP_PASSWORD\\" | sha256sum | cut -d' ' -f1 > ${proofFile}"
  }
}
`);
  return module;
}

/** Runs the real terraform, recording a hash of the provider argument it was given in TF_VAR_vaultdemo. */
function writeTerraformWrapper(dir: string, proofFile: string): string {
  const wrapper = join(dir, "terraform-wrapper.sh");
  writeFileSync(wrapper, `#!/bin/sh
if [ -n "$TF_VAR_vaultdemo" ]; then
  printf %s "$TF_VAR_vaultdemo" | sed -n 's/.*token *= *"\\(.*\\)".*/\\1/p' | tr -d '\\n' | sha256sum | cut -d' ' -f1 > ${proofFile}
fi
exec terraform "$@"
`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

function config(dir: string, consulAddress: string, vaultUrl: string, token: string, tasks: readonly string[], top = ""): string {
  const module = join(dir, "module");
  const task = (name: string, provider: string) => `task {
  name      = "${name}"
  module    = ${JSON.stringify(module)}
  providers = ["${provider}"]
  condition "services" {
    names = ["web"]
  }
}
`;
  return `log_level   = "DEBUG"
${top}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${consulAddress}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vaultUrl}"
  token   = "${token}"
}
driver "terraform" {
  path = ${JSON.stringify(join(dir, "terraform-wrapper.sh"))}
}
buffer_period {
  enabled = false
}
terraform_provider "terraform" {
  task_env {
    "APP_PASSWORD" = "{{ with secret \\"secret/app\\" }}{{ .Data.data.password }}{{ end }}"
  }
}
terraform_provider "vaultdemo" {
  token = "{{ with secret \\"kv/provider\\" }}{{ .Data.token }}{{ end }}"
}
${tasks.includes("env-task") ? task("env-task", "terraform") : ""}${tasks.includes("provider-task") ? task("provider-task", "vaultdemo") : ""}`;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("Vault secrets in terraform_provider blocks", () => {
  let consul: TestConsulDevServer;
  let vault: VaultDevServer;
  let daemon: ChildProcess;
  let logs = "";
  let apiPort = 0;
  const tmp = tempDir("vault-secrets");
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const envProof = join(tmp.path, "env-proof");

  beforeAll(async () => {
    consul = await startConsulDevServer();
    vault = await startVaultDevServer();
    const headers = { "X-Vault-Token": vault.rootToken };
    await fetch(`${vault.url}/v1/secret/data/app`, { method: "POST", headers, body: JSON.stringify({ data: { password } }) });
    await registerService(consul.url, "web-1", "web", "10.0.0.1");
    writeModule(tmp.path, envProof);
    writeTerraformWrapper(tmp.path, join(tmp.path, "provider-proof"));
    apiPort = await freePort();
    const file = join(tmp.path, "cts.hcl");
    writeFileSync(file, config(tmp.path, consul.address, vault.url, vault.rootToken, ["env-task"], `port = ${apiPort}`));
    daemon = spawnCli("node", ["start", `-config-file=${file}`], { cwd: tmp.path, env: terraformTestEnv() });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
  }, 60_000);

  afterAll(async () => {
    if (daemon?.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once("exit", resolve));
      daemon.kill("SIGTERM");
      await exited;
    }
    await vault?.stop();
    await consul?.stop();
    tmp.remove();
  });

  test("a KV v2 secret in task_env reaches the module's local-exec", async () => {
    await waitFor(() => existsSync(envProof) && readFileSync(envProof, "utf8").trim() !== "", () => `no proof file\n${logs}`, 120_000);
    expect(readFileSync(envProof, "utf8").trim()).toBe(sha256(password));
  }, 150_000);

  test("no log line, API answer, event or working-dir file holds the secret", async () => {
    await waitFor(async () => {
      const status = await (await fetch(`http://127.0.0.1:${apiPort}/v1/status/tasks?include=events`)).json();
      return status["env-task"]?.status === "successful";
    }, () => `env-task never succeeded\n${logs}`, 120_000);
    const answers = await Promise.all([
      "/v1/status/tasks?include=events", "/v1/tasks/env-task", "/v1/status", "/metrics",
    ].map(async (path) => await (await fetch(`http://127.0.0.1:${apiPort}${path}`)).text()));
    const files = filesUnder(join(tmp.path, "sync-tasks")).map((path) => readFileSync(path, "latin1"));
    expect(logs).toContain("connected to Vault");
    expect(logs).not.toContain(password);
    for (const answer of answers) expect(answer).not.toContain(password);
    for (const content of files) expect(content).not.toContain(password);
    expect(files.length).toBeGreaterThan(5);
  }, 150_000);
});

describe("a Vault secret in a provider argument", () => {
  test("reaches terraform as TF_VAR_<provider>, never a file, a log line (log_json) or an error", async () => {
    const consul = await startConsulDevServer();
    const vault = await startVaultDevServer();
    const tmp = tempDir("vault-provider");
    const providerToken = `tok-${randomBytes(12).toString("hex")}`;
    const proof = join(tmp.path, "provider-proof");
    try {
      await fetch(`${vault.url}/v1/kv/provider`, { method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ token: providerToken }) });
      await registerService(consul.url, "web-1", "web", "10.0.0.1");
      writeModule(tmp.path, join(tmp.path, "env-proof"));
      writeTerraformWrapper(tmp.path, proof);
      const file = join(tmp.path, "cts.hcl");
      writeFileSync(file, config(tmp.path, consul.address, vault.url, vault.rootToken, ["provider-task"], "port = 0\nlog_json = true"));
      // The made-up provider cannot be installed (no registry here), so init fails after terraform saw the value.
      const result = await runCli("node", ["start", `-config-file=${file}`, "-once"], { cwd: tmp.path, env: terraformTestEnv() });
      expect(result.code).not.toBe(0);
      expect(readFileSync(proof, "utf8").trim()).toBe(sha256(providerToken));
      const workingDir = join(tmp.path, "sync-tasks", "provider-task");
      expect(readFileSync(join(workingDir, "providers.auto.tfvars"), "utf8"))
        .toContain("# vaultdemo: holds values read from Vault, passed in the environment as TF_VAR_vaultdemo");
      expect(result.stdout + result.stderr).toContain('"@level"');
      expect(result.stdout + result.stderr).not.toContain(providerToken);
      const files = filesUnder(workingDir);
      expect(files.length).toBeGreaterThan(3);
      for (const path of files) expect(readFileSync(path, "latin1")).not.toContain(providerToken);
    } finally {
      await vault.stop();
      await consul.stop();
      tmp.remove();
    }
  }, 120_000);
});

describe("Vault errors at start-up", () => {
  test("a Vault that is down fails -once with an error naming the provider and the secret's path", async () => {
    const consul = await startConsulDevServer();
    const tmp = tempDir("vault-down");
    try {
      await registerService(consul.url, "web-1", "web", "10.0.0.1");
      writeModule(tmp.path, join(tmp.path, "proof"));
      writeTerraformWrapper(tmp.path, join(tmp.path, "provider-proof"));
      const closed = await freePort();
      const file = join(tmp.path, "cts.hcl");
      writeFileSync(file, config(tmp.path, consul.address, `http://127.0.0.1:${closed}`, "hvs.any", ["env-task"], "port = 0"));
      const result = await runCli("node", ["start", `-config-file=${file}`, "-once"], { cwd: tmp.path, env: terraformTestEnv() });
      // CTS pins: a template that cannot be resolved fails the controller's Init, and start exits ExitCodeError (11).
      expect(result.code).toBe(11);
      const output = result.stdout + result.stderr;
      expect(output).toContain('Cannot run task "env-task": Cannot resolve terraform_provider "terraform": Cannot read Vault secret "secret/app"');
      expect(output).toContain(`Vault at http://127.0.0.1:${closed} is unreachable`);
    } finally {
      await consul.stop();
      tmp.remove();
    }
  }, 120_000);

  test("a field the secret lacks fails naming the template", async () => {
    const consul = await startConsulDevServer();
    const vault = await startVaultDevServer();
    const tmp = tempDir("vault-field");
    try {
      await fetch(`${vault.url}/v1/secret/data/app`, { method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { other: "x" } }) });
      await fetch(`${vault.url}/v1/kv/provider`, { method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ token: "t" }) });
      await registerService(consul.url, "web-1", "web", "10.0.0.1");
      writeModule(tmp.path, join(tmp.path, "proof"));
      writeTerraformWrapper(tmp.path, join(tmp.path, "provider-proof"));
      const file = join(tmp.path, "cts.hcl");
      writeFileSync(file, config(tmp.path, consul.address, vault.url, vault.rootToken, ["env-task"], "port = 0"));
      const result = await runCli("node", ["start", `-config-file=${file}`, "-once"], { cwd: tmp.path, env: terraformTestEnv() });
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('template {{ with secret "secret/app" }} has no field .Data.data.password in the secret');
    } finally {
      await vault.stop();
      await consul.stop();
      tmp.remove();
    }
  }, 120_000);
});
