/**
 * @module `cts-runtime tfc-dev`: runs the embedded HCP Terraform-compatible server in the
 * foreground until SIGINT/SIGTERM, printing its address, organization and token, so the Terraform
 * CLI's `cloud` block, go-tfe or cts-runtime's terraform-cloud driver can use it.
 */
import { parseGoDuration, type CliCommand } from "../../core/plugin-api/mod.ts";
import { serveDevServer } from "../command-kit/serve-dev-server.ts";
import { tlsFlags, tlsFromFlags } from "../command-kit/tls-flags.ts";
import { describeFaults, faultFlags, faultsFromFlags } from "./command-faults.ts";
import type { TfcDevServer, TfcDevServerOptions } from "./src/tfc-dev-server.ts";

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
    { name: "rate-limit", type: "int", default: 30, placeholder: "<n>", help: "API requests a second per token, as HCP Terraform allows (0: no limit)." },
    ...faultFlags,
  ],
  run: (args, io) => serveDevServer<TfcDevServerOptions, TfcDevServer>(args, io, {
    what: "the TFC dev server",
    options: async (address, { flags }, { files }): Promise<TfcDevServerOptions> => ({
      hostname: address.hostname,
      port: address.port,
      organization: String(flags.organization),
      maxConcurrentRuns: Number(flags["max-concurrent-runs"]),
      rateLimitPerSecond: Number(flags["rate-limit"]),
      faults: faultsFromFlags(flags, parseGoDuration),
      ...(flags.token ? { token: String(flags.token) } : {}),
      ...(flags["terraform-binary"] ? { terraformBinary: String(flags["terraform-binary"]) } : {}),
      ...(await tlsFromFlags(flags, files)),
    }),
    start: async (options) => (await import("./src/tfc-dev-server.ts")).startTfcDevServer(options),
    banner(server, options) {
      const terraform = server.terraform ? `${server.terraform.path} (v${server.terraform.version})` : "none found on PATH: runs will error";
      return `==> HCP Terraform-compatible dev server running\n` +
        `          API: ${server.url}/api/v2/\n` +
        ` Organization: ${server.organization}\n` +
        `        Token: ${server.token}\n` +
        `    Terraform: ${terraform}\n` +
        `   Rate limit: ${server.rateLimitPerSecond > 0 ? `${server.rateLimitPerSecond} API requests a second per token` : "none"}\n` +
        `       Faults: ${describeFaults(options.faults ?? {})}\n`;
    },
  }),
};

export default tfcDevCommand;
