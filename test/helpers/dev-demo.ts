/**
 * @module `cts-runtime dev` as a user runs it, for the demo tests: a process in a temporary
 * directory with free ports, its output collected, the demo's services.txt read back, and a stop
 * that interrupts it as Ctrl-C does and removes the directory.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";
import { spawnCli } from "../../harness/run-cli.ts";

export interface DevDemo {
  /** The temporary directory; the demo writes into `<dir>/demo`. */
  readonly dir: string;
  readonly process: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** `name address:port` of each line of services.txt ([] before the first run). */
  serviceLines(): string[];
  /** SIGINT, wait for the exit, remove the directory. */
  stop(): Promise<void>;
}

export function startDevDemo(label: string, flags: readonly string[] = []): DevDemo {
  const tmp = tempDir(label);
  const child = spawnCli("node", ["dev", "-dir=demo", "-consul-port=0", "-port=0", ...flags], { cwd: tmp.path, env: terraformTestEnv() });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return {
    dir: tmp.path,
    process: child,
    output: () => output,
    serviceLines() {
      try {
        return readFileSync(join(tmp.path, "demo", "services.txt"), "utf8").split("\n").filter(Boolean)
          .map((line) => line.split(/\s+/).slice(0, 2).join(" "));
      } catch {
        return [];
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      tmp.remove();
    },
  };
}
