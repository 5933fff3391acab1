/**
 * @module `cts-runtime dev`: the one-command demo. Starts the embedded Consul-compatible server,
 * registers a few services, writes a config whose task runs examples/demo/module (offline:
 * terraform_data + local-exec), boots the daemon and says what to change to see it run again.
 * The servers come from the composition root (`DevEnvironment`), loaded only when `dev` runs.
 */
import { ExitCode, type CliCommand } from "../command.ts";
import type { CliIo } from "../../runtime/cli-io.ts";
import { runDaemon } from "./start.ts";
import { createFileSystem } from "../../runtime/file-system.ts";
import { errorMessage, type FileSystem } from "../../plugin-api/mod.ts";
import type { DevConsul, DevEnvironment, DevTfc, DevVault } from "../dev-environment.ts";

const DEV_DRIVERS = ["terraform", "terraform-cloud"] as const;
type DevDriver = typeof DEV_DRIVERS[number];

const TASK_NAME = "demo-services";

/** The instances registered at start: two healthy web servers and one api. */
const DEMO_SERVICES = [
  { ID: "web-1", Name: "web", Address: "10.0.0.11", Port: 80, Tags: ["blue"] },
  { ID: "web-2", Name: "web", Address: "10.0.0.12", Port: 80, Tags: ["green"] },
  { ID: "api-1", Name: "api", Address: "10.0.0.21", Port: 8080, Tags: ["v1"] },
];

/** examples/demo/module from the source tree (core/cli/commands) or from dist/ (dist/core/cli/commands). */
async function findDemoModule(fs: FileSystem): Promise<string | undefined> {
  for (const up of ["../../../", "../../../../"]) {
    const path = decodeURIComponent(new URL(`${up}examples/demo/module`, import.meta.url).pathname);
    if (await fs.isDirectory(path)) return path;
  }
  return undefined;
}

async function startConsul(servers: DevEnvironment, port: number, hostname: string, io: CliIo): Promise<DevConsul> {
  try {
    return await servers.startConsul({ port, hostname });
  } catch (error) {
    if (port === 0) throw error;
    io.err(`==> Port ${port} is busy (${errorMessage(error)}); the embedded Consul takes a free port instead\n`);
    return servers.startConsul({ port: 0, hostname });
  }
}

async function registerDemoServices(consul: DevConsul): Promise<void> {
  for (const service of DEMO_SERVICES) {
    const response = await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify(service) });
    if (!response.ok) throw new Error(`Cannot register demo service ${service.ID}: HTTP ${response.status} ${await response.text()}`);
  }
}

/** The demo config: CTS syntax, as a user would write it. */
export function demoConfig(options: {
  consulAddress: string; apiPort: number; dir: string; module: string; tfc?: DevTfc; vault?: DevVault;
}): string {
  const q = (text: string) => JSON.stringify(text);
  return `# Written by \`cts-runtime dev\`. It is an ordinary CTS config: copy it to start from.
log_level   = "INFO"
port        = ${options.apiPort}
working_dir = ${q(`${options.dir}/sync-tasks`)}

consul {
  address = ${q(options.consulAddress)}
}

${options.tfc ? options.tfc.driverBlock : `# Terraform (or OpenTofu) from PATH; state goes to the embedded Consul's KV store.
driver "terraform" {
  log = false
}`}

buffer_period {
  enabled = true
  min     = "1s"
  max     = "4s"
}
${options.vault ? `\n${options.vault.configBlocks}` : ""}
task {
  name           = ${q(TASK_NAME)}
  description    = "Writes the healthy web and api instances to services.txt"
  module         = ${q(options.module)}
  variable_files = [${q(`${options.dir}/demo.tfvars`)}]${options.vault ? `\n  providers      = ["terraform"]` : ""}

  condition "services" {
    names = ["web", "api"]
  }
}
`;
}

function instructions(consul: DevConsul, apiUrl: string, dir: string, tfc?: DevTfc, vault?: DevVault): string {
  const register = `curl -X PUT --data '{"ID":"web-3","Name":"web","Address":"10.0.0.13","Port":80}' ${consul.url}/v1/agent/service/register`;
  return [
    "",
    "==> cts-runtime dev is running",
    tfc
      ? `    Embedded Consul:     ${consul.url}`
      : `    Embedded Consul:     ${consul.url}  (state: KV consul-terraform-sync/terraform-env:${TASK_NAME})`,
    ...(tfc ? tfc.instructions(TASK_NAME) : []),
    ...(vault ? vault.instructions(dir) : []),
    `    cts-runtime API:     ${apiUrl}/v1/status/tasks`,
    `    Status page:         ${apiUrl}/ui/`,
    `    Config:              ${dir}/cts-demo.hcl`,
    ...(tfc ? [] : [`    Generated Terraform: ${dir}/sync-tasks/${TASK_NAME}/`]),
    `    Task output:         ${dir}/services.txt`,
    "",
    "    Register another web instance, then look at services.txt again:",
    `      ${register}`,
    "    And remove it:",
    `      curl -X PUT ${consul.url}/v1/agent/service/deregister/web-3`,
    "",
    "    Ctrl-C stops everything.",
    "",
  ].join("\n");
}

/** `dev` starting the servers `loadServers` gives (none: the command says this build has none). */
export const devCommand = (loadServers: (() => Promise<DevEnvironment>) | undefined): CliCommand => ({
  name: "dev",
  summary: "Runs a demo: embedded Consul, a few services and a task that writes them to a file",
  usage: [
    "Starts an embedded Consul-compatible server, registers demo services, writes a demo config",
    "into -dir and runs the daemon on it. Needs `terraform` (or `tofu`) on PATH; no network.",
    "Everything listens on 127.0.0.1 (this machine only) unless -address says otherwise.",
  ].join("\n"),
  flags: [
    { name: "dir", type: "string", default: "cts-demo", placeholder: "<path>", help: "Where the demo config, task files and output go." },
    { name: "consul-port", type: "int", default: 8500, help: "Port of the embedded Consul (a free one if busy; 0 = any)." },
    { name: "port", type: "int", default: 8558, help: "Port of the cts-runtime API." },
    {
      name: "address", type: "string", default: "127.0.0.1", placeholder: "<address>",
      help: "Address the API and the embedded servers listen on (0.0.0.0: every interface, reachable from the network).",
    },
    { name: "driver", type: "string", default: "terraform", placeholder: "<name>", help: "terraform, or terraform-cloud to run the task in the embedded HCP Terraform server." },
    { name: "tfc-port", type: "int", default: 0, help: "Port of the embedded HCP Terraform server with -driver=terraform-cloud (0 = any)." },
    { name: "vault", type: "bool", default: false, help: "Also start an embedded Vault-compatible server; the task reads a secret from it." },
    { name: "vault-port", type: "int", default: 0, help: "Port of the embedded Vault server with -vault (0 = any)." },
  ],
  async run(args, io) {
    const fs = createFileSystem(io.cwd);
    const dir = fs.resolve(String(args.flags["dir"] ?? "cts-demo"));
    const apiPort = Number(args.flags["port"] ?? 8558);
    const address = String(args.flags["address"] ?? "127.0.0.1");
    const driver = String(args.flags["driver"] ?? "terraform") as DevDriver;
    if (!DEV_DRIVERS.includes(driver)) {
      io.err(`==> Error: -driver must be one of ${DEV_DRIVERS.join(", ")}, got ${JSON.stringify(driver)}\n`);
      return ExitCode.flagParseError;
    }
    const module = await findDemoModule(fs);
    if (!module) {
      io.err("==> Error: Cannot start the demo: examples/demo/module is missing (run `cts-runtime dev` from a checkout)\n");
      return ExitCode.runtimeError;
    }
    if (!loadServers) {
      io.err("==> Error: Cannot start the demo: this build of cts-runtime has no embedded dev servers\n");
      return ExitCode.runtimeError;
    }
    const servers = await loadServers();
    let consul: DevConsul;
    try {
      consul = await startConsul(servers, Number(args.flags["consul-port"] ?? 8500), address, io);
    } catch (error) {
      io.err(`==> Error: Cannot start the embedded Consul: ${errorMessage(error)}\n`);
      return ExitCode.runtimeError;
    }
    let tfc: DevTfc | undefined;
    let vault: DevVault | undefined;
    try {
      if (driver === "terraform-cloud") tfc = await servers.startTfc({ port: Number(args.flags["tfc-port"] ?? 0), hostname: address });
      if (args.flags["vault"] === true) vault = await servers.startVault({ port: Number(args.flags["vault-port"] ?? 0), hostname: address });
      await registerDemoServices(consul);
      await fs.mkdir(dir);
      await fs.writeText(fs.resolve(dir, "demo.tfvars"), `output_file = ${JSON.stringify(`${dir}/services.txt`)}\n`);
      const configPath = fs.resolve(dir, "cts-demo.hcl");
      await fs.writeText(configPath, demoConfig({ consulAddress: consul.address, apiPort, dir, module, ...(tfc ? { tfc } : {}), ...(vault ? { vault } : {}) }));
      return await runDaemon({
        configPaths: [{ kind: "file", path: configPath }],
        runOptions: { mode: "daemon", inspectTasks: [], resetStorage: false },
        listenAddress: address,
        io: { ...io, env: { ...io.env, ...(tfc ? { TFC_TOKEN: tfc.token } : {}), ...(vault ? { VAULT_TOKEN: vault.rootToken } : {}) } },
        onRunning: (daemon) => {
          // The real port (with -port=0), reachable on loopback whatever address the API binds.
          const apiUrl = (daemon.kernel.httpUrl ?? `http://127.0.0.1:${apiPort}`).replace("://0.0.0.0:", "://127.0.0.1:");
          io.out(instructions(consul, apiUrl, dir, tfc, vault));
        },
      });
    } catch (error) {
      io.err(`==> Error: ${errorMessage(error)}\n`);
      return ExitCode.runtimeError;
    } finally {
      await tfc?.stop();
      await vault?.stop();
      await consul.stop();
    }
  },
});
