/**
 * @module The ProcessRunner service over zx: arguments are quoted one by one, so nothing a
 * user configured is ever interpreted by the shell, and `exec` makes the shell replace itself
 * with the command, so that aborting signals the command itself and not a wrapper.
 */
import process from "node:process";
import { $, which } from "zx";
import type { ProcessOptions, ProcessResult, ProcessRunner } from "../plugin-api/mod.ts";

const signalNumbers: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Commands still running. When cts-runtime exits (a stop that outlived its grace period, a crash),
 * they are killed, as CTS has the kernel do for its Terraform (parent-death signal): an orphaned
 * `terraform apply` would keep holding the state lock and race the next start's run.
 */
const running = new Set<number>();
process.on("exit", () => {
  for (const pid of running) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

export function createProcessRunner(): ProcessRunner {
  return {
    async run(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<ProcessResult> {
      options.signal?.throwIfAborted();
      const shell = $({
        cwd: options.cwd,
        // Layered: a task's env adds to (never replaces) the daemon's, as CTS does.
        env: { ...process.env, ...options.env },
        signal: options.signal,
        input: options.input,
        nothrow: true,
        quiet: true,
        verbose: false,
        prefix: "exec ",
        postfix: "",
      });
      const child = shell`${command} ${[...args]}`;
      const onOutput = options.onOutput;
      if (onOutput) {
        child.stdout.on("data", (chunk: Uint8Array | string) => onOutput(String(chunk), "stdout"));
        child.stderr.on("data", (chunk: Uint8Array | string) => onOutput(String(chunk), "stderr"));
      }
      const pid = child.pid;
      if (pid !== undefined) running.add(pid);
      const output = await child.finally(() => {
        if (pid !== undefined) running.delete(pid);
      });
      // Aborting is the caller's decision, so it surfaces as the caller's reason, not as an exit code.
      options.signal?.throwIfAborted();
      const exitCode = output.exitCode ?? (output.signal ? 128 + (signalNumbers[output.signal] ?? 0) : 1);
      return { exitCode, stdout: output.stdout, stderr: output.stderr };
    },

    async which(command: string): Promise<string | undefined> {
      return (await which(command, { nothrow: true })) ?? undefined;
    },
  };
}
