/**
 * Secrets that rotate (issue 30 item 1, CTS#530), in the vault-client service against the embedded
 * Vault over real HTTP: a watched template hears that its secret changed — a KV v2 version, a lease
 * that reached its max_ttl, a non-renewable token at the end of its TTL, a KV v1 value at the check
 * interval — and renders the new value from then on, with the old one still masked. One change is
 * one rotation object for every listener; a secret nobody watches, or watching turned off (CTS's
 * behaviour: read once), never rotates; a failed check keeps the value in use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";
import type { SecretRotation, VaultConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { VaultSecretsService } from "../../../plugins/vault-client/src/vault-secrets-service.ts";
import { until } from "../../../harness/until.ts";
import { createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";

const noTls = { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };
const vaultConfig = (address: string, token: string): VaultConfig => ({
  enabled: true, address, namespace: "", token, vault_agent_token_file: "", renew_token: false, unwrap_token: false, tls: noTls,
});

const KV2 = '{{ with secret "secret/rotating" }}{{ .Data.data.password }}{{ end }}';
const OTHER = '{{ with secret "secret/steady" }}{{ .Data.data.password }}{{ end }}';

// Independent cases (each its own secret and service): they run side by side.
describe.concurrent("watched secrets", () => {
  let vault: VaultDevServer;
  const revoked: string[] = [];
  const call = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
    await fetch(`${vault.url}/v1/${path}`, {
      method, headers: { "X-Vault-Token": vault.rootToken }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const service = (checkIntervalMs = 200, enabled = true) => {
    const masker = new SecretList();
    const logger = createCaptureLogger("vault");
    const secrets = new VaultSecretsService(vaultConfig(vault.url, vault.rootToken), createFileSystem(), logger, {
      secrets: masker, watching: { enabled, checkIntervalMs },
    });
    return { secrets, masker, logger };
  };

  beforeAll(async () => {
    vault = await startVaultDevServer({ consulTokens: { created: () => {}, revoked: (token) => revoked.push(token) } });
    await call("secret/data/steady", { data: { password: "steady-value-1" } });
    await call("sys/mounts/consul", { type: "consul" });
    await call("consul/roles/cts", { policies: ["cts"], ttl: "3s", max_ttl: "5s" });
  });
  afterAll(async () => {
    await vault?.stop();
  });

  it("at the check interval: one rotation object per change, the new value rendered, the old one still masked", async () => {
    await call("secret/data/rotating", { data: { password: "third-password" } });
    const { secrets, masker, logger } = service(200);
    try {
      expect(await secrets.renderTemplate(KV2, "terraform_provider \"a\"")).toBe("third-password");
      const heard: [string, SecretRotation][] = [];
      secrets.watchTemplate(KV2, (rotation) => heard.push(["a", rotation]));
      secrets.watchTemplate(`prefix ${KV2}`, (rotation) => heard.push(["c", rotation]));
      secrets.watchTemplate(OTHER, (rotation) => heard.push(["b", rotation]));
      await until("a check that found nothing new", () => (logger.text().includes("secret checked, unchanged") ? true : undefined), 10_000);
      expect(heard).toEqual([]);
      await call("secret/data/rotating", { data: { password: "fourth-password" } });
      await until("the rotation", () => (heard.length >= 2 ? true : undefined), 10_000);
      expect(heard.map(([who]) => who).sort()).toEqual(["a", "c"]);
      expect(heard[0]![1]).toBe(heard[1]![1]);
      expect(heard[0]![1]).toEqual({ path: "secret/rotating", cause: "version", version: 2 });
      expect(await secrets.renderTemplate(KV2, "terraform_provider \"a\"")).toBe("fourth-password");
      expect(masker.mask("third-password fourth-password")).toBe("<redacted> <redacted>");
      expect(logger.lines).toContainEqual(expect.objectContaining({
        level: "INFO", message: "secret rotated", fields: { path: "secret/rotating", cause: "version", version: 2 },
      }));
      expect(logger.text()).not.toMatch(/third-password|fourth-password/);
    } finally {
      secrets.stop();
    }
  });

  it("a failed check keeps the value in use; the next change still rotates", async () => {
    await call("secret/data/fragile", { data: { password: "kept-password" } });
    const template = '{{ with secret "secret/fragile" }}{{ .Data.data.password }}{{ end }}';
    const { secrets, logger } = service(200);
    try {
      await secrets.renderTemplate(template, "x");
      const heard: SecretRotation[] = [];
      secrets.watchTemplate(template, (rotation) => heard.push(rotation));
      await call("secret/metadata/fragile", undefined, "DELETE");
      await until("a failed check", () => (logger.text().includes("cannot check a secret for rotation") ? true : undefined), 10_000);
      expect(await secrets.renderTemplate(template, "x")).toBe("kept-password");
      expect(heard).toEqual([]);
      await call("secret/data/fragile", { data: { password: "back-password" } });
      await until("the rotation after the failure", () => (heard.length > 0 ? true : undefined), 20_000);
      expect(heard).toEqual([{ path: "secret/fragile", cause: "changed" }]);
      expect(await secrets.renderTemplate(template, "x")).toBe("back-password");
      expect(logger.lines.filter((line) => line.message.startsWith("cannot check a secret for rotation"))).toHaveLength(1);
    } finally {
      secrets.stop();
    }
  });

  it("a lease renewed up to its max_ttl is replaced by a new read before it expires", async () => {
    const template = '{{ with secret "consul/creds/cts" }}{{ .Data.token }}{{ end }}';
    const { secrets, masker } = service(100_000);
    try {
      const first = await secrets.renderTemplate(template, "consul.token");
      const heard: SecretRotation[] = [];
      secrets.watchTemplate(template, (rotation) => heard.push(rotation));
      await until("the lease's replacement", () => (heard.length > 0 ? true : undefined), 15_000);
      expect(heard).toEqual([{ path: "consul/creds/cts", cause: "lease" }]);
      const second = await secrets.renderTemplate(template, "consul.token");
      expect(second).not.toBe(first);
      expect(masker.mask(`${first} ${second}`)).toBe("<redacted> <redacted>");
      // Read again before the old lease ended: the old token was still valid until Vault revoked it.
      await until("the old lease's revocation", () => (revoked.includes(first) ? true : undefined), 10_000);
      expect(revoked).not.toContain(second);
    } finally {
      secrets.stop();
    }
  });

  it("a non-renewable token made by the read is made anew at the end of its TTL", async () => {
    const template = '{{ with secret "auth/token/create" "ttl=2s" "renewable=false" }}{{ .Auth.ClientToken }}{{ end }}';
    const { secrets } = service(100_000);
    try {
      const first = await secrets.renderTemplate(template, "x");
      const heard: SecretRotation[] = [];
      secrets.watchTemplate(template, (rotation) => heard.push(rotation));
      await until("the token's replacement", () => (heard.length > 0 ? true : undefined), 10_000);
      expect(heard[0]).toEqual({ path: "auth/token/create", cause: "ttl" });
      expect(await secrets.renderTemplate(template, "x")).not.toBe(first);
    } finally {
      secrets.stop();
    }
  });

  it("with watching off (CTS: read once) a watched template never rotates", async () => {
    const template = '{{ with secret "secret/frozen" }}{{ .Data.data.password }}{{ end }}';
    await call("secret/data/frozen", { data: { password: "frozen-password" } });
    const { secrets, logger } = service(50, false);
    try {
      expect(await secrets.renderTemplate(template, "x")).toBe("frozen-password");
      const heard: SecretRotation[] = [];
      secrets.watchTemplate(template, (rotation) => heard.push(rotation));
      await call("secret/data/frozen", { data: { password: "unseen-password" } });
      // Reading the new version directly proves it is there; the service keeps what it read.
      expect((await secrets.read("secret/frozen", {})).data).toMatchObject({ data: { password: "unseen-password" } });
      expect(await secrets.renderTemplate(template, "x")).toBe("frozen-password");
      expect(heard).toEqual([]);
      expect(logger.text()).not.toContain("secret checked");
    } finally {
      secrets.stop();
    }
  });
});
