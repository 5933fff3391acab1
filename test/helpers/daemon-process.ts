/**
 * @module The real daemon as a child process for end-to-end tests: started with `start -config-file`
 * on Node or Deno (optionally under a lowered descriptor limit), its output collected, its API
 * awaited, and stopped with SIGTERM as an operator would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cliCommand, type CliOptions, type Runtime, spawnCli } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";

export interface DaemonProcess {
  readonly process: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for the exit (nothing when it already exited). */
  stop(): Promise<void>;
}

export function startDaemon(runtime: Runtime, configFile: string, options: CliOptions & { readonly fileLimit?: number } = {}): DaemonProcess {
  const args = ["start", `-config-file=${configFile}`];
  let child: ChildProcess;
  if (options.fileLimit === undefined) child = spawnCli(runtime, args, options);
  else {
    const command = cliCommand(runtime, args);
    const quoted = [command.file, ...command.args].map((arg) => `'${arg}'`).join(" ");
    child = spawn("/bin/sh", ["-c", `ulimit -n ${options.fileLimit} && exec ${quoted}`], { cwd: options.cwd, env: { ...process.env, ...options.env } });
  }
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Waits until `probe` says the daemon answers (a bound for a hang, naming its output). */
export async function waitForDaemon(daemon: DaemonProcess, probe: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  try {
    await until("the daemon to answer", async () => ((await probe().catch(() => false)) ? true : undefined), limitMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${daemon.output()}`);
  }
}

/** A probe: `url` answers 2xx. */
export const answers = (url: string) => async (): Promise<boolean> => (await fetch(url)).ok;
