/**
 * @module The embedded Consul-compatible server (`cts-runtime consul-dev`) as a library, for commands,
 * tests and benchmarks: `startConsulDevServer(options)` → `{ url, address, port, state, stop() }`.
 * plugin.ts beside this file wraps it as a plugin a config can load by path. See README.md.
 */
export { startConsulDevServer } from "./src/consul-dev-server.ts";
export type { ConsulDevServer, ConsulDevServerOptions } from "./src/consul-dev-server.ts";
export type { AclRule, AclRules } from "./src/acl.ts";
