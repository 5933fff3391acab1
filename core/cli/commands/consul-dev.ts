/**
 * @module `cts-runtime consul-dev`: runs the embedded Consul-compatible server in the foreground
 * (like `consul agent -dev`) until SIGINT/SIGTERM, so any client — CTS, Terraform, curl — can use it.
 */
import { type CliCommand, ExitCode } from "../command.ts";
import { errorMessage } from "../../plugin-api/mod.ts";
import { createFileSystem } from "../../runtime/file-system.ts";
import { waitForShutdownSignal } from "../../runtime/signals.ts";
import { startConsulDevServer } from "../../../dev-servers/consul/src/consul-dev-server.ts";

/** `host:port` → parts; the host may be bracketed IPv6. */
function parseHttpAddr(text: string): { hostname: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return { hostname: match[1] ?? (match[2] || "127.0.0.1"), port };
}

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
  async run(args, io) {
    const addr = parseHttpAddr(String(args.flags["http-addr"] ?? "127.0.0.1:8500"));
    if (!addr) {
      io.err(`Error: invalid -http-addr ${JSON.stringify(args.flags["http-addr"])}: expected <host:port>\n`);
      return ExitCode.flagParseError;
    }
    const snapshot = args.flags.snapshot as string | undefined;
    const aclToken = args.flags["acl-token"] as string | undefined;
    const files = createFileSystem(io.cwd);
    let server;
    try {
      server = await startConsulDevServer({
        hostname: addr.hostname,
        port: addr.port,
        node: String(args.flags.node ?? "consul-dev"),
        datacenter: String(args.flags.datacenter ?? "dc1"),
        ...(aclToken ? { aclToken } : {}),
        ...(snapshot ? { snapshotPath: files.resolve(snapshot), fileSystem: files } : {}),
        onSnapshotNotice: (level, message) => io.err(`${new Date().toISOString()} [${level}] ${level === "INFO" ? " " : ""}consul-dev: ${message}\n`),
      });
    } catch (error) {
      io.err(`Error: cannot start the Consul dev server: ${errorMessage(error)}\n`);
      return ExitCode.runtimeError;
    }
    io.out(`==> Consul-compatible dev server running\n` +
      `         HTTP: ${server.url}\n` +
      `   Datacenter: ${server.datacenter}\n` +
      `         Node: ${server.node}\n` +
      `         ACLs: ${aclToken ? "enabled (default deny)" : "disabled"}\n` +
      `     Snapshot: ${snapshot ? files.resolve(snapshot) : "none (in memory only)"}\n`);
    const signal = await waitForShutdownSignal();
    io.out(`==> Caught ${signal}, shutting down\n`);
    await server.stop();
    return ExitCode.ok;
  },
};

export default consulDevCommand;
