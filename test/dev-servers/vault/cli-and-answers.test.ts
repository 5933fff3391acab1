/**
 * `cts-runtime vault-dev` as a user starts it (Node and Deno), and the HTTP answers that Vault
 * clients branch on: the error bodies, the KV v2 mount probe, and token expiry on the server's clock.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import { freePort } from "../../../harness/free-port.ts";
import { type Runtime, runCli, spawnCli } from "../../../harness/run-cli.ts";
import { until } from "../../../harness/until.ts";

async function waitForBanner(child: ChildProcess): Promise<string> {
  let output = "";
  return await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${output}`)), 30_000);
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("VAULT_ADDR")) {
        clearTimeout(timer);
        resolve(output);
      }
    });
  });
}

describe.each<Runtime>(["node", "deno"])("cts-runtime vault-dev on %s", (runtime) => {
  it("prints its address and root token, serves KV until interrupted, and exits 0", async () => {
    const port = await freePort();
    const child = spawnCli(runtime, ["vault-dev", `-http-addr=127.0.0.1:${port}`, "-root-token=dev-root"]);
    try {
      const output = await waitForBanner(child);
      expect(output).toContain(`Api Address: http://127.0.0.1:${port}`);
      expect(output).toContain("Root Token: dev-root");
      const headers = { "X-Vault-Token": "dev-root", "Content-Type": "application/json" };
      const write = await fetch(`http://127.0.0.1:${port}/v1/secret/data/demo`, { method: "POST", headers, body: JSON.stringify({ data: { password: "hunter2" } }) });
      expect(write.status).toBe(200);
      const read = await (await fetch(`http://127.0.0.1:${port}/v1/secret/data/demo`, { headers })).json();
      expect(read.data.data).toEqual({ password: "hunter2" });
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
  }, 60_000);
});

describe("cts-runtime vault-dev flags", () => {
  it("rejects a bad address naming the flag", async () => {
    const result = await runCli("node", ["vault-dev", "-http-addr=nowhere"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('invalid -http-addr "nowhere"');
  });
});

describe("vault-dev answers", () => {
  let now = Date.parse("2026-11-26T00:00:00Z");
  let server: VaultDevServer;
  const consulTokens: string[] = [];
  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${server.url}/v1/${path}`, { ...init, headers: { "X-Vault-Token": init.token ?? server.rootToken, ...init.headers } });
  beforeAll(async () => {
    server = await startVaultDevServer({
      rootToken: "root", clock: () => now,
      consulTokens: { created: (token) => consulTokens.push(`created ${token}`), revoked: (token) => consulTokens.push(`revoked ${token}`) },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers a missing token with 403 permission denied, as Vault writes it", async () => {
    const answer = await fetch(`${server.url}/v1/secret/data/x`);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ errors: ["permission denied"] });
  });

  it("answers a missing secret with 404 and an empty errors list, and an unmounted path naming the route", async () => {
    const missing = await call("kv/nothing-here");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ errors: [] });
    const unmounted = await call("nowhere/x");
    expect(unmounted.status).toBe(404);
    expect((await unmounted.json()).errors[0]).toContain('no handler for route "nowhere/x"');
  });

  it("answers a deleted KV v2 version with 404 and its metadata", async () => {
    await call("secret/data/gone", { method: "POST", body: JSON.stringify({ data: { a: "b" } }) });
    await call("secret/data/gone", { method: "DELETE" });
    const answer = await call("secret/data/gone");
    expect(answer.status).toBe(404);
    const body = await answer.json();
    expect(body.data.data).toBeNull();
    expect(body.data.metadata.version).toBe(1);
    expect(body.data.metadata.deletion_time).not.toBe("");
  });

  it("tells consul-template's KV v2 probe which mount a path is in", async () => {
    const body = await (await call("sys/internal/ui/mounts/secret/app/db")).json();
    expect(body.data).toMatchObject({ path: "secret/", type: "kv", options: { version: "2" } });
  });

  it("expires a token at its TTL and renews it up to its maximum", async () => {
    const created = await (await call("auth/token/create", { method: "POST", body: JSON.stringify({ ttl: "60s", explicit_max_ttl: "90s" }) })).json();
    const token = created.auth.client_token as string;
    now += 50_000;
    const renewed = await (await call("auth/token/renew-self", { method: "POST", token, body: JSON.stringify({ increment: "1h" }) })).json();
    expect(renewed.auth.lease_duration).toBe(40); // capped at explicit_max_ttl: 90 s after creation
    now += 41_000;
    const expired = await call("auth/token/lookup-self", { token });
    expect(expired.status).toBe(403);
  });

  it("leases the Consul engine's tokens on its clock: renewed up to max_ttl, revoked at expiry", async () => {
    await call("sys/mounts/consul", { method: "POST", body: JSON.stringify({ type: "consul" }) });
    await call("consul/roles/cts", { method: "POST", body: JSON.stringify({ policies: ["cts"], ttl: "60s", max_ttl: "100s" }) });
    const creds = await (await call("consul/creds/cts")).json();
    expect(creds).toMatchObject({ renewable: true, lease_duration: 60, data: { consul_namespace: "", local: false, partition: "" } });
    expect(creds.lease_id).toMatch(/^consul\/creds\/cts\/\w+$/);
    const token = creds.data.token as string;
    expect(consulTokens).toEqual([`created ${token}`]);
    now += 50_000;
    const renew = (increment: string) => call("sys/leases/renew", { method: "PUT", body: JSON.stringify({ lease_id: creds.lease_id, increment }) });
    expect(await (await renew("60s")).json()).toMatchObject({ lease_id: creds.lease_id, renewable: true, lease_duration: 50 }); // max_ttl: 100 s after issue
    now += 49_000;
    const lookup = await (await call("sys/leases/lookup", { method: "PUT", body: JSON.stringify({ lease_id: creds.lease_id }) })).json();
    expect(lookup.data).toMatchObject({ id: creds.lease_id, renewable: true, ttl: 1 });
    now += 2_000;
    await until("the lease's revocation", () => (consulTokens.length === 2 ? true : undefined), 5_000);
    expect(consulTokens).toEqual([`created ${token}`, `revoked ${token}`]);
    const gone = await renew("60s");
    expect(gone.status).toBe(400);
    expect(await gone.json()).toEqual({ errors: ["invalid lease"] });
  });

  it("rejects a body that is not JSON with 400 and the parser's reason", async () => {
    const answer = await call("kv/x", { method: "PUT", body: "{nope" });
    expect(answer.status).toBe(400);
    expect((await answer.json()).errors[0]).toMatch(/^failed to parse JSON input/);
  });
});
