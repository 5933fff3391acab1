/**
 * The embedded Vault server against a client nobody here wrote: Debian's python3-hvac (installed by
 * scripts/setup-debian-python.sh hvac python3-hvac, which `npm test` runs when it is missing) drives KV v1 and v2,
 * versions, check-and-set, token create/lookup/renew/revoke, namespaces, mounts, a wrong token, and
 * the Consul secrets engine's leased tokens (lookup, renewal up to max_ttl, revocation).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { $ } from "zx";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";

$.verbose = false;

describe("vault-dev against python3-hvac", () => {
  let server: VaultDevServer;
  beforeAll(async () => {
    server = await startVaultDevServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("passes every hvac check", async () => {
    const result = await $({
      nothrow: true,
      env: { ...process.env, VAULT_ADDR: server.url, VAULT_TOKEN: server.rootToken },
    })`/usr/bin/python3 ${import.meta.dirname}/hvac-conformance.py`;
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) || "{}");
    expect(summary.failed ?? [{ name: "runner", error: result.stdout + result.stderr }]).toEqual([]);
    expect(summary.passed).toHaveLength(12);
    expect(result.exitCode).toBe(0);
  }, 60_000);
});
