/**
 * @module `cts-runtime tfc-dev`: runs the embedded HCP Terraform-compatible server in the
 * foreground until SIGINT/SIGTERM, printing its address, organization and token, so the Terraform
 * CLI's `cloud` block, go-tfe or cts-runtime's terraform-cloud driver can use it.
 */
import { type CliCommand, ExitCode } from "../../../cli/command.ts";
import { parseHttpAddr } from "../../../cli/parse-http-addr.ts";
import { tlsFromFlags, tlsFlags } from "../../../cli/tls-flags.ts";
import { errorMessage, parseGoDuration } from "../../../plugin-api/mod.ts";
import { waitForShutdownSignal } from "../../../runtime/signals.ts";
import { describeFaults, faultFlags, faultsFromFlags } from "./fault-flags.ts";
import { startTfcDevServer, type TfcDevServerOptions } from "./tfc-dev-server.ts";

const tfcDevCommand: CliCommand = {
  name: "tfc-dev",
  summary: "Runs an embedded HCP Terraform-compatible server for development",
  usage: [
    "Serves the HCP Terraform / Terraform Enterprise API (organizations, workspaces, variables,",
    "configuration versions, runs, plans, applies, state versions) from memory until interrupted.",
    "Runs execute for real with the local terraform (or tofu). The organization exists from the start.",
  ].join("\n"),
  flags: [
    { name: "http-addr", type: "string", default: "127.0.0.1:8900", placeholder: "<host:port>", help: "Address to listen on." },
    { name: "organization", type: "string", default: "cts-dev", placeholder: "<name>", help: "The organization that exists from the start." },
    { name: "token", type: "string", placeholder: "<token>", help: "API token clients must send (default: a random one, printed at start)." },
    ...tlsFlags,
    { name: "terraform-binary", type: "string", placeholder: "<name|path>", help: "Binary runs execute with (default: terraform, else tofu)." },
    { name: "max-concurrent-runs", type: "int", default: 2, placeholder: "<n>", help: "How many runs plan or apply at once." },
    ...faultFlags,
  ],
  async run(args, io) {
    const addr = parseHttpAddr(String(args.flags["http-addr"]));
    if (!addr) {
      io.err(`Error: invalid -http-addr ${JSON.stringify(args.flags["http-addr"])}: expected <host:port>\n`);
      return ExitCode.flagParseError;
    }
    let options: TfcDevServerOptions;
    try {
      options = {
        hostname: addr.hostname,
        port: addr.port,
        organization: String(args.flags.organization),
        maxConcurrentRuns: Number(args.flags["max-concurrent-runs"]),
        faults: faultsFromFlags(args.flags, parseGoDuration),
        ...(args.flags.token ? { token: String(args.flags.token) } : {}),
        ...(args.flags["terraform-binary"] ? { terraformBinary: String(args.flags["terraform-binary"]) } : {}),
        ...(await tlsFromFlags(args.flags, io.cwd)),
      };
    } catch (error) {
      io.err(`Error: ${errorMessage(error)}\n`);
      return ExitCode.flagParseError;
    }
    let server;
    try {
      server = await startTfcDevServer(options);
    } catch (error) {
      io.err(`Error: cannot start the TFC dev server: ${errorMessage(error)}\n`);
      return ExitCode.runtimeError;
    }
    const terraform = server.terraform ? `${server.terraform.path} (v${server.terraform.version})` : "none found on PATH: runs will error";
    io.out(`==> HCP Terraform-compatible dev server running\n` +
      `          API: ${server.url}/api/v2/\n` +
      ` Organization: ${server.organization}\n` +
      `        Token: ${server.token}\n` +
      `    Terraform: ${terraform}\n` +
      `       Faults: ${describeFaults(options.faults ?? {})}\n`);
    const signal = await waitForShutdownSignal();
    io.out(`==> Caught ${signal}, shutting down\n`);
    await server.stop();
    return ExitCode.ok;
  },
};

export default tfcDevCommand;
