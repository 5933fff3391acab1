/**
 * @module Benchmark: what a Consul token rotated in Vault costs the watches that use it.
 *
 * Run:  npm run bench -- consul-token-rotation     (N = 100 and 1000 watches; `npx deno run -A bench/consul-token-rotation.ts 50 500`)
 *
 * The embedded Consul (ACLs on) and Vault run in this process over real HTTP on loopback. One
 * Consul client whose token is `{{ with secret "secret/bench/consul" }}` parks N blocking queries
 * (one service each). A new KV v2 version of the token is written; the table gives, from the moment
 * the client took the new token (`onCredentialsChange`) until every one of the N queries was parked
 * again with it: the time, the requests each query sent, and how many started over from index 0
 * (none should: they are asked again at the index they had). Without re-parking, a query keeps the
 * old token until its wait ends: up to 5 min + 5 min/16 (Consul's default wait and jitter), so the
 * old token could not be revoked before then. Three rounds; median and slowest.
 */
import process from "node:process";
import { startConsulDevServer } from "../dev-servers/consul/mod.ts";
import type { FaultRequest } from "../dev-servers/consul/src/http/fault-hook.ts";
import { startVaultDevServer } from "../dev-servers/vault/mod.ts";
import { consulQuery, type Logger } from "../core/plugin-api/mod.ts";
import { testConfig } from "../core/plugin-testkit/src/test-config.ts";
import { createFileSystem } from "../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../core/runtime/http-client.ts";
import { createConsulClient } from "../plugins/consul-client/mod.ts";
import { VaultSecretsService } from "../plugins/vault-client/src/vault-secrets-service.ts";

const ROUNDS = 3;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const silent: Logger = { name: "bench", trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const RULES = [{ resource: "service", prefix: "", policy: "read" }, { resource: "node", prefix: "", policy: "read" }] as const;

const requests: FaultRequest[] = [];
/** Token → the paths parked with it (index above 0), kept as requests arrive so polling costs nothing. */
const parked = new Map<string, Set<string>>();
const consul = await startConsulDevServer({
  aclToken: "root",
  faults: (request) => {
    requests.push(request);
    if (Number(request.query.get("index")) > 0) {
      const paths = parked.get(request.token) ?? new Set<string>();
      parked.set(request.token, paths.add(request.path));
    }
    return undefined;
  },
});
const vault = await startVaultDevServer();
const fs = createFileSystem();
const writeToken = (token: string) => fetch(`${vault.url}/v1/secret/data/bench/consul`, {
  method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { token } }),
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("the benchmark hung");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function round(n: number, r: number): Promise<{ ms: number; perQuery: number; fromZero: number }> {
  const [oldToken, newToken] = [`old-${n}-${r}-${crypto.randomUUID()}`, `new-${n}-${r}-${crypto.randomUUID()}`];
  consul.acl.grant(oldToken, [...RULES]);
  consul.acl.grant(newToken, [...RULES]);
  await writeToken(oldToken);
  const secrets = new VaultSecretsService({
    enabled: true, address: vault.url, namespace: "", token: vault.rootToken, vault_agent_token_file: "", renew_token: false, unwrap_token: false,
    tls: { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" },
  }, fs, silent, { watching: { enabled: true, checkIntervalMs: 1_000 } });
  const client = await createConsulClient({
    consul: { ...testConfig({ consulAddress: consul.address }).consul, token: '{{ with secret "secret/bench/consul" }}{{ .Data.data.token }}{{ end }}' },
    fs, logger: silent, http: createHttpClientFactory(), vault: secrets,
  });
  const stop = new AbortController();
  const paths = Array.from({ length: n }, (_, i) => `/v1/health/service/bench-${i}`);
  const parkedWith = (token: string) => parked.get(token) ?? new Set<string>();
  for (const path of paths) void client.watch(consulQuery(path), () => {}, stop.signal);
  await until(() => parkedWith(oldToken).size === n);
  let changedAt = 0;
  client.onCredentialsChange!(() => (changedAt = performance.now()));
  const before = requests.length;
  await writeToken(newToken);
  await until(() => changedAt > 0 && parkedWith(newToken).size === n);
  const ms = performance.now() - changedAt;
  await new Promise((resolve) => setTimeout(resolve, 200)); // any stragglers would show in the counts
  const after = requests.slice(before).filter((q) => q.token === newToken);
  stop.abort();
  client.close();
  secrets.stop();
  return { ms, perQuery: after.length / n, fromZero: after.filter((q) => q.query.get("index") === null).length };
}

console.log("| watches | re-parked with the new token, median ms | slowest ms | requests per watch | started over from index 0 |");
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const n of sizes.length > 0 ? sizes : [100, 1000]) {
  await round(n, -1); // warm-up: JIT, sockets
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(n, r));
  const times = rounds.map((result) => result.ms);
  console.log(`| ${n} | ${median(times).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${median(rounds.map((x) => x.perQuery)).toFixed(2)} | ${Math.max(...rounds.map((x) => x.fromZero))} |`);
}
await consul.stop();
await vault.stop();
