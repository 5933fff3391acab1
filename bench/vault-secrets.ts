/**
 * @module Benchmark: the start-up cost of resolving `{{ with secret }}` templates against Vault.
 *
 * Run:  npm run bench -- vault-secrets        (N = 100 secrets; `npx deno run -A bench/vault-secrets.ts 100 500`)
 *
 * The embedded Vault (vault-dev) runs in this process over real HTTP on loopback, with N KV v2
 * secrets. Each scenario builds a fresh client (so the connection, the token lookup and every
 * mount probe are counted), then resolves:
 *   - one provider, N secrets:   one terraform_provider block whose N arguments each read a secret
 *   - N providers, 1 secret each: N blocks resolved at once, as N tasks initialising together do
 * Five rounds per scenario; the table gives the median and the slowest round.
 */
import process from "node:process";
import type { Logger, ProviderConfig } from "../core/plugin-api/mod.ts";
import { testConfig } from "../core/plugin-testkit/src/test-config.ts";
import { createFileSystem } from "../core/runtime/file-system.ts";
import { startVaultDevServer } from "../dev-servers/vault/mod.ts";
import { startConsulDevServer } from "../dev-servers/consul/mod.ts";
import { createConsulClient } from "../plugins/consul-client/mod.ts";
import { ProviderTemplates } from "../plugins/task-engine/src/provider-templates.ts";
import { VaultSecretsService } from "../plugins/vault-client/src/vault-secrets-service.ts";
import { createHttpClientFactory } from "../core/runtime/http-client.ts";

const ROUNDS = 5;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);

const silent: Logger = {
  name: "bench", trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent,
};

const template = (i: number) => `{{ with secret "secret/bench/s${i}" }}{{ .Data.data.value }}{{ end }}`;
const provider = (id: string, args: Record<string, string>): ProviderConfig => ({ id, name: id, arguments: args, task_env: {} });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const vault = await startVaultDevServer();
const consul = await startConsulDevServer();
const fs = createFileSystem();
const vaultConfig = {
  enabled: true, address: vault.url, namespace: "", token: vault.rootToken, vault_agent_token_file: "", renew_token: true, unwrap_token: false,
  tls: { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" },
};
const consulClient = await createConsulClient({
  consul: testConfig({ consulAddress: consul.address }).consul, fs, logger: silent, http: createHttpClientFactory(),
});

async function round(n: number, scenario: "one" | "many"): Promise<number> {
  const secrets = new VaultSecretsService(vaultConfig, fs, silent);
  const templates = new ProviderTemplates(consulClient, secrets);
  const signal = new AbortController().signal;
  const started = performance.now();
  if (scenario === "one") {
    const args = Object.fromEntries(Array.from({ length: n }, (_, i) => [`arg${i}`, template(i)]));
    const resolved = await templates.resolve(provider("one", args), signal);
    if (resolved.arguments.arg0 !== "value-0") throw new Error("wrong value");
  } else {
    const all = await Promise.all(Array.from({ length: n }, (_, i) => templates.resolve(provider(`p${i}`, { token: template(i) }), signal)));
    if (all[n - 1]!.arguments.token !== `value-${n - 1}`) throw new Error("wrong value");
  }
  const elapsed = performance.now() - started;
  secrets.stop();
  return elapsed;
}

console.log("| scenario | secrets | median ms | max ms | ms per secret (median) |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const n of sizes.length > 0 ? sizes : [100]) {
  for (let i = 0; i < n; i++) {
    await fetch(`${vault.url}/v1/secret/data/bench/s${i}`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { value: `value-${i}` } }),
    });
  }
  for (const [scenario, label] of [["one", "one provider, N secrets"], ["many", "N providers, 1 secret each"]] as const) {
    await round(n, scenario); // warm-up: JIT, sockets
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) times.push(await round(n, scenario));
    const mid = median(times);
    console.log(`| ${label} | ${n} | ${mid.toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${(mid / n).toFixed(2)} |`);
  }
}
consulClient.close();
await consul.stop();
await vault.stop();
