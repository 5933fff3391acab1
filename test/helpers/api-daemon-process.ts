/**
 * @module A real daemon (`node dist/main.js start`) on a free port with the embedded Consul: the
 * common head of its config (no registration, no buffer period), `body` (driver and task blocks)
 * after it, its output collected, its API at `url`, stopped with SIGTERM.
 */
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../harness/free-port.ts";
import { spawnCli } from "../../harness/run-cli.ts";

export interface DaemonProcess {
  readonly url: string;
  /** Everything the daemon printed so far. */
  logs(): string;
  stop(): Promise<void>;
}

export async function startDaemonProcess(options: {
  readonly dir: string;
  readonly consulAddress: string;
  readonly body: string;
  readonly env?: Readonly<Record<string, string>>;
}): Promise<DaemonProcess> {
  const port = await freePort();
  writeFileSync(join(options.dir, "cts.hcl"), `log_level = "INFO"
port = ${port}
working_dir = ${JSON.stringify(join(options.dir, "sync-tasks"))}
consul {
  address = "${options.consulAddress}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
${options.body}`);
  const daemon: ChildProcess = spawnCli("node", ["start", "-config-file=cts.hcl"], { cwd: options.dir, ...(options.env ? { env: options.env } : {}) });
  let output = "";
  daemon.stdout!.on("data", (chunk) => (output += chunk));
  daemon.stderr!.on("data", (chunk) => (output += chunk));
  return {
    url: `http://127.0.0.1:${port}`,
    logs: () => output,
    async stop() {
      if (daemon.exitCode !== null || daemon.signalCode !== null) return;
      const exited = new Promise((resolve) => daemon.once("exit", resolve));
      daemon.kill("SIGTERM");
      await exited;
    },
  };
}
