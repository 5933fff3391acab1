/**
 * Issue 26, items 4 and 5, through the real CLI (`start -once`): consul.transport's
 * tls_handshake_timeout ends the wait on a Consul that accepts and never answers TLS, naming the
 * setting; consul.auth { enabled = false } sends no credentials; vault.tls { enabled = false } reads
 * no TLS file, so a missing ca_cert does not fail the task (all as CTS).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot, runCli } from "../../harness/run-cli.ts";
import { type RecordingProxy, startRecordingProxy } from "../../harness/ha-consul/recording-proxy.ts";

const stubModule = join(repoRoot, "test", "plugins", "driver-terraform", "modules", "stub");
const dir = mkdtempSync(join(tmpdir(), "cts-client-settings-"));
let consul: TestConsulDevServer;
let proxy: RecordingProxy;
let vault: VaultDevServer;
let silent: Server;
const sockets: Socket[] = [];

beforeAll(async () => {
  consul = await startConsulDevServer();
  proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
  vault = await startVaultDevServer();
  await fetch(`${vault.url}/v1/secret/data/app`, {
    method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { password: "kv2-value" } }),
  });
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await proxy?.close();
  await consul?.stop();
  await vault?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A one-task config (development client: no Terraform runs) with `blocks` added. */
function config(name: string, blocks: string): string {
  const file = join(dir, `${name}.hcl`);
  writeFileSync(file, `working_dir = ${JSON.stringify(join(dir, name))}
driver "terraform" {
  backend "local" {}
}
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { one_shot_consul_wait = "5s" }
}
task {
  name      = "web"
  module    = ${JSON.stringify(stubModule)}
  providers = ["demo"]
  condition "services" {
    names = ["web"]
  }
}
${blocks}`);
  return file;
}

const noProvider = `terraform_provider "demo" {}\n`;

describe.concurrent("client settings through start -once", () => {
  it("consul.transport tls_handshake_timeout: a Consul that never answers the handshake is given up on, naming it", async () => {
    const file = config("handshake", `consul {
  address = "127.0.0.1:${(silent.address() as { port: number }).port}"
  service_registration {
    enabled = false
  }
  tls {
    enabled = true
  }
  transport {
    tls_handshake_timeout = "500ms"
  }
}
${noProvider}`);
    const result = await runCli("node", ["start", "-once", "-client-type=development", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toMatch(/Cannot read task "web"'s data from Consul at https:\/\/127\.0\.0\.1:\d+ within 5s: .*TLS handshake timeout: .* did not complete the TLS handshake within 500ms \(tls_handshake_timeout\)/);
  });

  it("consul.auth { enabled = false } sends no credentials", async () => {
    const file = config("auth-off", `consul {
  address = "${proxy.address}"
  service_registration {
    enabled = false
  }
  auth {
    enabled  = false
    username = "cts"
    password = "not-sent"
  }
}
${noProvider}`);
    const result = await runCli("node", ["start", "-once", "-client-type=development", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(0);
    const seen = proxy.exchanges.filter((exchange) => exchange.path.startsWith("/v1/health/service/web"));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((exchange) => exchange.headers.authorization)).toEqual(seen.map(() => undefined));
  });

  it("vault.tls { enabled = false } reads no TLS file: a missing ca_cert does not fail the task", async () => {
    const file = config("vault-tls-off", `consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vault.url}"
  token   = "${vault.rootToken}"
  tls {
    enabled = false
    ca_cert = "/nonexistent/vault-ca.pem"
  }
}
terraform_provider "demo" {
  password = "{{ with secret \\"secret/app\\" }}{{ .Data.data.password }}{{ end }}"
}
`);
    const result = await runCli("node", ["start", "-once", "-client-type=development", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("connected to Vault");
    expect(result.stderr).not.toContain("kv2-value");
  });
});
