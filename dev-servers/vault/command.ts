/**
 * @module `cts-runtime vault-dev`: runs the embedded Vault-compatible server in the foreground until
 * SIGINT/SIGTERM, printing its address and root token as `vault server -dev` does, so that
 * VAULT_ADDR/VAULT_TOKEN, hvac or cts-runtime's `vault {}` block can use it.
 */
import type { CliCommand } from "../../core/plugin-api/mod.ts";
import { serveDevServer } from "../command-kit/serve-dev-server.ts";
import { tlsFlags, tlsFromFlags } from "../command-kit/tls-flags.ts";
import type { VaultDevServerOptions } from "./src/vault-dev-server.ts";

const vaultDevCommand: CliCommand = {
  name: "vault-dev",
  summary: "Runs an embedded Vault-compatible server for development",
  usage: [
    "Serves Vault's KV version 1 (kv/) and version 2 (secret/) secrets engines and token auth",
    "from memory until interrupted. Only the root token and tokens it creates are accepted.",
  ].join("\n"),
  flags: [
    { name: "http-addr", type: "string", default: "127.0.0.1:8200", placeholder: "<host:port>", help: "Address to listen on." },
    { name: "root-token", type: "string", placeholder: "<token>", help: "The root token (default: a random one, printed at start)." },
    ...tlsFlags,
  ],
  run: (args, io) => serveDevServer(args, io, {
    what: "the Vault dev server",
    options: async (address, { flags }, { files }): Promise<VaultDevServerOptions> => ({
      hostname: address.hostname,
      port: address.port,
      ...(flags["root-token"] ? { rootToken: String(flags["root-token"]) } : {}),
      ...(await tlsFromFlags(flags, files)),
    }),
    start: async (options) => (await import("./src/vault-dev-server.ts")).startVaultDevServer(options),
    banner: (server) => `==> Vault-compatible dev server running\n` +
      `    Api Address: ${server.url}\n` +
      `     Root Token: ${server.rootToken}\n` +
      `         Mounts: secret/ (kv version 2), kv/ (kv version 1)\n\n` +
      `    export VAULT_ADDR='${server.url}'\n`,
  }),
};

export default vaultDevCommand;
