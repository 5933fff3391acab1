/**
 * @module The built daemon (`node dist/main.js start`) as a child process on a free port it writes
 * into the config, optionally under a lowered open-file limit (`prlimit --nofile`), with its output,
 * an API caller and a stop: for the fault tests that must see the real process survive what happens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../harness/free-port.ts";
import { cliCommand, repoRoot } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";

export interface DaemonSpec {
  /** Its working directory; cts.hcl is written here. */
  readonly dir: string;
  /** The config file, given the port the daemon listens on. */
  readonly config: (port: number) => string;
  /** Open-file limit (soft and hard) the daemon starts with. */
  readonly nofile?: number;
  readonly env?: Readonly<Record<string, string>>;
  readonly flags?: readonly string[];
}

export interface ApiAnswer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

export interface DaemonProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
  /** True until the process exits. */
  alive(): boolean;
  /** undefined when the daemon did not answer (connection refused, reset, 5 s timeout). */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer | undefined>;
  stop(): Promise<number | null>;
}

export async function startDaemon(spec: DaemonSpec): Promise<DaemonProcess> {
  const port = await freePort();
  const configPath = join(spec.dir, "cts.hcl");
  writeFileSync(configPath, spec.config(port));
  const command = cliCommand("node", ["start", ...(spec.flags ?? []), `-config-file=${configPath}`]);
  const [file, args] = spec.nofile === undefined
    ? [command.file, command.args]
    : ["prlimit", [`--nofile=${spec.nofile}:${spec.nofile}`, command.file, ...command.args]];
  const child = spawn(file, args, { cwd: spec.dir, env: { ...process.env, NO_COLOR: "1", ...spec.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const daemon: DaemonProcess = {
    url,
    port,
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async api(method, path, body) {
      try {
        const response = await fetch(`${url}${path}`, {
          method,
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
          signal: AbortSignal.timeout(5000),
        });
        const text = await response.text();
        let json: Record<string, unknown> = {};
        try {
          json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          json = { text };
        }
        return { status: response.status, json };
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (daemon.alive()) child.kill("SIGTERM");
      return await exited;
    },
  };
  await until(`the daemon to start\n${output}`, () => (output.includes("kernel: started") ? true : !daemon.alive() ? false : undefined), 60_000)
    .then((started) => {
      if (!started) throw new Error(`the daemon exited at start-up:\n${output}`);
    });
  return daemon;
}

export { repoRoot };
