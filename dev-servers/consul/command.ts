/**
 * @module `cts-runtime consul-dev`: runs the embedded Consul-compatible server in the foreground
 * (like `consul agent -dev`) until SIGINT/SIGTERM, so any client — CTS, Terraform, curl — can use it.
 */
import type { CliCommand } from "../../core/plugin-api/mod.ts";
import { serveDevServer } from "../command-kit/serve-dev-server.ts";
import type { ConsulDevServerOptions } from "./src/consul-dev-server.ts";

const consulDevCommand: CliCommand = {
  name: "consul-dev",
  summary: "Runs an embedded Consul-compatible server for development",
  usage: [
    "Serves Consul's HTTP API (KV, catalog, health, agent, sessions, txn, blocking queries) from",
    "memory until interrupted. Point CTS, Terraform's consul backend or any Consul client at it.",
  ].join("\n"),
  flags: [
    { name: "http-addr", type: "string", default: "127.0.0.1:8500", placeholder: "<host:port>", help: "Address to listen on." },
    { name: "node", type: "string", default: "consul-dev", placeholder: "<name>", help: "The agent's node name." },
    { name: "datacenter", type: "string", default: "dc1", placeholder: "<name>", help: "The datacenter name." },
    { name: "acl-token", type: "string", placeholder: "<token>", help: "Management token; enables ACLs (default deny)." },
    { name: "snapshot", type: "string", placeholder: "<file>", help: "JSON file to load at start and keep up to date." },
  ],
  run: (args, context) => serveDevServer(args, context, {
    what: "the Consul dev server",
    options: async (address, { flags }, { files, err }): Promise<ConsulDevServerOptions> => {
      const snapshot = flags.snapshot as string | undefined;
      const aclToken = flags["acl-token"] as string | undefined;
      return {
        hostname: address.hostname,
        port: address.port,
        node: String(flags.node ?? "consul-dev"),
        datacenter: String(flags.datacenter ?? "dc1"),
        ...(aclToken ? { aclToken } : {}),
        ...(snapshot ? { snapshotPath: files.resolve(snapshot), fileSystem: files } : {}),
        onSnapshotNotice: (level, message) => err(`${new Date().toISOString()} [${level}] ${level === "INFO" ? " " : ""}consul-dev: ${message}\n`),
      };
    },
    start: async (options) => (await import("./src/consul-dev-server.ts")).startConsulDevServer(options),
    banner: (server, options) => `==> Consul-compatible dev server running\n` +
      `         HTTP: ${server.url}\n` +
      `   Datacenter: ${server.datacenter}\n` +
      `         Node: ${server.node}\n` +
      `         ACLs: ${options.aclToken ? "enabled (default deny)" : "disabled"}\n` +
      `     Snapshot: ${options.snapshotPath ?? "none (in memory only)"}\n`,
  }),
};

export default consulDevCommand;
