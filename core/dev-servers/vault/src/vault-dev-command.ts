/**
 * @module `cts-runtime vault-dev`: runs the embedded Vault-compatible server in the foreground until
 * SIGINT/SIGTERM, printing its address and root token as `vault server -dev` does, so that
 * VAULT_ADDR/VAULT_TOKEN, hvac or cts-runtime's `vault {}` block can use it.
 */
import { type CliCommand, ExitCode } from "../../../cli/command.ts";
import { parseHttpAddr } from "../../../cli/parse-http-addr.ts";
import { tlsFlags, tlsFromFlags } from "../../../cli/tls-flags.ts";
import { errorMessage } from "../../../plugin-api/mod.ts";
import { waitForShutdownSignal } from "../../../runtime/signals.ts";
import { startVaultDevServer, type VaultDevServerOptions } from "./vault-dev-server.ts";

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
  async run(args, io) {
    const addr = parseHttpAddr(String(args.flags["http-addr"]));
    if (!addr) {
      io.err(`Error: invalid -http-addr ${JSON.stringify(args.flags["http-addr"])}: expected <host:port>\n`);
      return ExitCode.flagParseError;
    }
    let options: VaultDevServerOptions;
    try {
      options = {
        hostname: addr.hostname,
        port: addr.port,
        ...(args.flags["root-token"] ? { rootToken: String(args.flags["root-token"]) } : {}),
        ...(await tlsFromFlags(args.flags, io.cwd)),
      };
    } catch (error) {
      io.err(`Error: ${errorMessage(error)}\n`);
      return ExitCode.flagParseError;
    }
    let server;
    try {
      server = await startVaultDevServer(options);
    } catch (error) {
      io.err(`Error: cannot start the Vault dev server: ${errorMessage(error)}\n`);
      return ExitCode.runtimeError;
    }
    io.out(`==> Vault-compatible dev server running\n` +
      `    Api Address: ${server.url}\n` +
      `     Root Token: ${server.rootToken}\n` +
      `         Mounts: secret/ (kv version 2), kv/ (kv version 1)\n\n` +
      `    export VAULT_ADDR='${server.url}'\n`);
    const signal = await waitForShutdownSignal();
    io.out(`==> Caught ${signal}, shutting down\n`);
    await server.stop();
    return ExitCode.ok;
  },
};

export default vaultDevCommand;
