/**
 * The vault-client service against the embedded Vault over real HTTP: consul-template's KV v2
 * path rule, writes with parameters, the token kept alive by renewal, an unrenewable token and an
 * unknown path reported plainly, and nothing secret in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import type { VaultConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { VaultSecretsService } from "../../../plugins/vault-client/src/vault-secrets-service.ts";
import { createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";

const noTls = { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };
const vaultConfig = (address: string, token: string, renew = true): VaultConfig => ({
  enabled: true, address, namespace: "", token, vault_agent_token_file: "", renew_token: renew, unwrap_token: false, tls: noTls,
});

describe("VaultSecretsService", () => {
  let vault: VaultDevServer;
  const call = async (path: string, body?: unknown) =>
    await (await fetch(`${vault.url}/v1/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "X-Vault-Token": vault.rootToken },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })).json().catch(() => undefined);

  beforeAll(async () => {
    vault = await startVaultDevServer();
    await call("secret/data/app", { data: { password: "kv2-value" } });
    await call("kv/legacy", { password: "kv1-value" });
  });
  afterAll(async () => {
    await vault?.stop();
  });

  it("reads KV v2 with or without data/ in the path, and KV v1 as written", async () => {
    const service = new VaultSecretsService(vaultConfig(vault.url, vault.rootToken), createFileSystem(), createCaptureLogger("vault"));
    try {
      expect((await service.read("secret/app", {})).data).toMatchObject({ data: { password: "kv2-value" } });
      expect((await service.read("secret/data/app", {})).data).toMatchObject({ data: { password: "kv2-value" } });
      const legacy = await service.read("kv/legacy", {});
      expect(legacy.data).toEqual({ password: "kv1-value" });
      expect(legacy.leaseDuration).toBe(2764800);
    } finally {
      service.stop();
    }
  });

  it("writes the parameters of a `with secret` that has them, and answers with Vault's data", async () => {
    const child = (await call("auth/token/create", { ttl: "10m", meta: { owner: "cts" } })).auth;
    const service = new VaultSecretsService(vaultConfig(vault.url, vault.rootToken), createFileSystem(), createCaptureLogger("vault"));
    try {
      const looked = await service.read("auth/token/lookup", { token: child.client_token });
      expect(looked.data).toMatchObject({ accessor: child.accessor, meta: { owner: "cts" } });
    } finally {
      service.stop();
    }
  });

  it("renews a renewable token before it expires", async () => {
    const token = (await call("auth/token/create", { ttl: "3s", renewable: true })).auth.client_token as string;
    const logger = createCaptureLogger("vault");
    const service = new VaultSecretsService(vaultConfig(vault.url, token), createFileSystem(), logger);
    try {
      await service.read("kv/legacy", {});
      // Renewal is due 2 s after the lookup; the token would be gone 3 s after creation without it.
      const lookup = async () => (await fetch(`${vault.url}/v1/auth/token/lookup-self`, { headers: { "X-Vault-Token": token } })).json();
      let self = await lookup();
      for (let i = 0; i < 100 && self.data?.last_renewal === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        self = await lookup();
      }
      expect(self.data.last_renewal).toBeDefined();
      expect(logger.lines.filter((line) => line.level === "ERROR")).toEqual([]);
      expect(logger.text()).not.toContain(token);
    } finally {
      service.stop();
    }
  }, 20_000);

  it("reports a token that cannot be renewed once, at ERROR", async () => {
    const token = (await call("auth/token/create", { ttl: "1h", renewable: false })).auth.client_token as string;
    const logger = createCaptureLogger("vault");
    const service = new VaultSecretsService(vaultConfig(vault.url, token), createFileSystem(), logger);
    try {
      await service.read("kv/legacy", {});
      await service.read("secret/app", {});
      const errors = logger.lines.filter((line) => line.level === "ERROR");
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toContain("the Vault token is not renewable");
    } finally {
      service.stop();
    }
  });

  it("names the path and Vault's answer for a missing secret and a wrong token, never the token", async () => {
    const service = new VaultSecretsService(vaultConfig(vault.url, vault.rootToken), createFileSystem(), createCaptureLogger("vault"));
    const wrong = new VaultSecretsService(vaultConfig(vault.url, "hvs.wrong-token", false), createFileSystem(), createCaptureLogger("vault"));
    try {
      await expect(service.read("kv/nothing", {})).rejects.toThrow('Cannot read Vault secret "kv/nothing": Vault answered 404: no secret at this path');
      const denied = await wrong.read("kv/legacy", {}).catch((error: Error) => error);
      expect(String(denied)).toContain('Cannot read Vault secret "kv/legacy": Vault answered 403: permission denied');
      expect(String(denied)).not.toContain("hvs.wrong-token");
    } finally {
      service.stop();
      wrong.stop();
    }
  });
});
