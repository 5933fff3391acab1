/**
 * @module The embedded Vault-compatible server (`cts-runtime vault-dev`) as a library, for commands,
 * tests and benchmarks: `startVaultDevServer(options)` → `{ url, rootToken, state, stop() }`.
 * See README.md beside this file for what it answers.
 */
export { startVaultDevServer } from "./src/vault-dev-server.ts";
export type { VaultDevServer, VaultDevServerOptions } from "./src/vault-dev-server.ts";
export type { ConsulTokenSink } from "./src/engines/consul-engine.ts";
