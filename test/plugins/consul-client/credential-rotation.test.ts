/**
 * Consul credentials from Vault (issue 30 item 1, CTS#825 and CTS#530), with the real Consul client
 * against the embedded Consul with ACLs and the embedded Vault over real HTTP: the token is read
 * through `{{ with secret }}`; when it rotates (a KV v2 version; a Consul-engine lease at its
 * max_ttl) the next request carries the new one, the parked blocking query is asked again at the
 * index it had (never from 0), the old token can be revoked at once, and the watch never sees a
 * 403 nor misses a change. The client's listeners hear the change once; no token reaches a log line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import type { AclRule } from "../../../dev-servers/consul/mod.ts";
import type { FaultRequest } from "../../../dev-servers/consul/src/http/fault-hook.ts";
import { consulQuery, type VaultConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { type ClosableConsulClient, createConsulClient } from "../../../plugins/consul-client/mod.ts";
import { VaultSecretsService } from "../../../plugins/vault-client/src/vault-secrets-service.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { until } from "../../../harness/until.ts";
import { createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";
import { consulConfig } from "../../../harness/consul-client/client-options.ts";

const RULES: readonly AclRule[] = [
  { resource: "service", prefix: "", policy: "read" },
  { resource: "node", prefix: "", policy: "read" },
];
const noTls = { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };

let consul: TestConsulDevServer;
let vault: VaultDevServer;
const seen: FaultRequest[] = [];
const open: { stop(): void }[] = [];

const register = (id: string) => fetch(`${consul.url}/v1/agent/service/register`, {
  method: "PUT", headers: { "X-Consul-Token": "root" }, body: JSON.stringify({ ID: id, Name: "web", Address: "10.0.0.1", Port: 80 }),
});
const writeSecret = (token: string) => fetch(`${vault.url}/v1/secret/data/consul`, {
  method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { token } }),
});

/** A client whose token is `template`, and a watch of the web service's health that records what it sees. */
async function watchedClient(template: string) {
  const logger = createCaptureLogger("consul");
  const secrets = new VaultSecretsService(
    { enabled: true, address: vault.url, namespace: "", token: vault.rootToken, vault_agent_token_file: "", renew_token: false, unwrap_token: false, tls: noTls } satisfies VaultConfig,
    createFileSystem(), logger.child("vault"), { watching: { enabled: true, checkIntervalMs: 200 } },
  );
  const client: ClosableConsulClient = await createConsulClient({
    http: createHttpClientFactory(), consul: consulConfig(consul.address, { token: template }), fs: createFileSystem(), logger,
    backoff: { baseMs: 20, maxMs: 200 }, vault: secrets,
  });
  const stop = new AbortController();
  open.push({ stop: () => (stop.abort(), client.close(), secrets.stop()) });
  const results: string[][] = [];
  const indexes: number[] = [];
  const errors: string[] = [];
  let changes = 0;
  client.onCredentialsChange!(() => changes++);
  const query = consulQuery("/v1/health/service/web");
  void client.watch(query, (result) => {
    indexes.push(result.index);
    results.push((result.data as { Service: { ID: string } }[]).map((entry) => entry.Service.ID).sort());
  }, stop.signal, (error) => errors.push(error.message));
  await until("the first result", () => (results.length > 0 ? true : undefined), 10_000);
  return { client, logger, results, indexes, errors, changes: () => changes };
}

const watchRequests = (token: string) => seen.filter((request) => request.path === "/v1/health/service/web" && request.token === token);

beforeAll(async () => {
  consul = await startConsulDevServer({ aclToken: "root", faults: (request) => void seen.push(request) });
  vault = await startVaultDevServer({
    consulTokens: { created: (token) => consul.acl.grant(token, RULES), revoked: (token) => consul.acl.revoke(token) },
  });
  await register("web-1");
});
afterEach(() => {
  for (const handle of open.splice(0)) handle.stop();
});
afterAll(async () => {
  await vault?.stop();
  await consul?.stop();
});

describe("a Consul token read from Vault", () => {
  it("rotated in KV v2: the parked query is asked again at its index with the new token, and the old one can go at once", async () => {
    consul.acl.grant("token-one-0123456789", RULES);
    await writeSecret("token-one-0123456789");
    const watch = await watchedClient('{{ with secret "secret/consul" }}{{ .Data.data.token }}{{ end }}');
    expect(watch.client.credentials!().token).toBe("token-one-0123456789");
    await register("web-2");
    await until("the change with the first token", () => (watch.results.at(-1)?.length === 2 ? true : undefined), 10_000);
    const parkedAt = watch.indexes.at(-1)!;
    await until("the query parked at that index", () =>
      (watchRequests("token-one-0123456789").some((request) => request.query.get("index") === String(parkedAt)) ? true : undefined), 10_000);

    consul.acl.grant("token-two-0123456789", RULES);
    await writeSecret("token-two-0123456789");
    await until("a request with the new token", () => (watchRequests("token-two-0123456789").length > 0 ? true : undefined), 10_000);
    consul.acl.revoke("token-one-0123456789");
    // Asked again where it was parked: the index goes on, nothing is read from scratch.
    expect(watchRequests("token-two-0123456789")[0]!.query.get("index")).toBe(String(parkedAt));
    await register("web-3");
    await until("the change after the rotation", () => (watch.results.at(-1)?.length === 3 ? true : undefined), 10_000);
    expect(watch.errors).toEqual([]);
    expect(watch.changes()).toBe(1);
    expect(watch.client.credentials!().token).toBe("token-two-0123456789");
    expect(seen.filter((request) => request.path === "/v1/health/service/web" && request.query.get("index") === null)).toHaveLength(1);
    expect(watch.logger.text()).not.toMatch(/token-(one|two)/);
  });

  it("a Consul-engine lease renewed to its max_ttl: a new token before the old one is revoked, and the watch goes on", async () => {
    await fetch(`${vault.url}/v1/sys/mounts/consul`, { method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ type: "consul" }) });
    await fetch(`${vault.url}/v1/consul/roles/cts`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ policies: ["cts"], ttl: "3s", max_ttl: "4s" }),
    });
    const watch = await watchedClient('{{ with secret "consul/creds/cts" }}{{ .Data.token }}{{ end }}');
    const first = watch.client.credentials!().token;
    await until("the second token", () => (watch.client.credentials!().token !== first ? true : undefined), 15_000);
    const second = watch.client.credentials!().token;
    // vault-dev revokes the first token when its lease ends: Consul refuses it from then on.
    await until("the first token's revocation", async () => {
      const answer = await fetch(`${consul.url}/v1/health/service/web`, { headers: { "X-Consul-Token": first } });
      return answer.status === 403 ? true : undefined;
    }, 10_000);
    const before = watch.results.length;
    await register(`web-${before + 10}`);
    await until("the change after the revocation", () => (watch.results.length > before ? true : undefined), 10_000);
    expect(watch.errors).toEqual([]);
    expect(watchRequests(second).every((request) => Number(request.query.get("index")) > 0)).toBe(true);
    expect(watch.logger.text()).not.toContain(first);
    expect(watch.logger.text()).not.toContain(second);
  });
});
