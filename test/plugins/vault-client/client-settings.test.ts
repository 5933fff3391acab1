/**
 * vault.tls and vault.transport as CTS honours them: with `tls { enabled = false }` the TLS files are
 * not read (a missing ca_cert does not fail the read), and the transport block reaches the HTTP
 * connection (a Vault that accepts and never answers TLS fails at tls_handshake_timeout, named).
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import type { VaultConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { VaultSecretsService } from "../../../plugins/vault-client/src/vault-secrets-service.ts";
import { createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";

const tls = { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };
const vaultConfig = (address: string, token: string, fields: Partial<VaultConfig> = {}): VaultConfig => ({
  enabled: true, address, namespace: "", token, vault_agent_token_file: "", renew_token: false, unwrap_token: false, tls, ...fields,
});
const service = (config: VaultConfig) => new VaultSecretsService(config, createFileSystem(), createCaptureLogger("vault"), { http: createHttpClientFactory() });

let vault: VaultDevServer;
let silent: Server;
const sockets: Socket[] = [];

beforeAll(async () => {
  vault = await startVaultDevServer();
  await fetch(`${vault.url}/v1/secret/data/app`, {
    method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { password: "kv2-value" } }),
  });
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await vault?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
});

describe("vault client settings", () => {
  it("tls { enabled = false } reads no TLS file: a missing ca_cert does not fail the read (CTS)", async () => {
    const disabled = { ...tls, enabled: false, ca_cert: "/nonexistent/vault-ca.pem" };
    const secret = await service(vaultConfig(vault.url, vault.rootToken, { tls: disabled })).read("secret/app", {});
    expect(secret.data).toMatchObject({ data: { password: "kv2-value" } });
    // Enabled, the same block is read and its missing file reported.
    const error = await service(vaultConfig(vault.url, vault.rootToken, { tls: { ...disabled, enabled: true } }))
      .read("secret/app", {}).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/[Cc]annot read Vault TLS ca_cert "\/nonexistent\/vault-ca\.pem"/);
  });

  it("transport { tls_handshake_timeout } applies: a Vault that never answers the handshake fails naming it", async () => {
    const address = `https://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const error = await service(vaultConfig(address, "t", { transport: { tls_handshake_timeout: 300 } }))
      .read("secret/app", {}).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/TLS handshake timeout: 127\.0\.0\.1:\d+ accepted the connection but did not complete the TLS handshake within 300ms \(tls_handshake_timeout\)/);
  });
});
