/**
 * @module Runs one Terraform command for a task: working dir, layered environment, output to the
 * log when `log = true`, cancellation, and errors that quote what Terraform said. Output is cleaned
 * as it is captured (colour codes a provisioner printed removed, known secrets masked), so nothing
 * built from it (errors, plans, events, run records, logs) can carry them.
 */
import stripAnsi from "strip-ansi";
import { CtsError, type Logger, type ProcessResult, type ProcessRunner, type SecretMasker, sleep } from "../../../core/plugin-api/mod.ts";
import { describeLock, lockRetryDelayMs, stateLockError } from "./state-lock.ts";
import type { TerraformBinary } from "./terraform-binary.ts";

export interface TerraformCliOptions {
  readonly binary: TerraformBinary;
  readonly processes: ProcessRunner;
  readonly workingDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly logger: Logger;
  /** Stream Terraform's output into the log (`driver.log = true`). */
  readonly log: boolean;
  /** driver "terraform" lock_timeout: as written (for messages) and in milliseconds. */
  readonly lockTimeout: string;
  readonly lockTimeoutMs: number;
  /**
   * Aborted when the daemon stops. Apply runs with a signal that never aborts (an apply is never cut
   * in half), but no Terraform runs between two tries for a held lock, so that wait ends at a stop.
   */
  readonly stopping?: AbortSignal;
  /** The daemon's secrets. @default none */
  readonly secrets?: Pick<SecretMasker, "mask">;
}

/** The useful part of Terraform's output for an error message: from the first `Error:` on. */
export function terraformErrorText(result: Pick<ProcessResult, "stdout" | "stderr">): string {
  const text = `${result.stderr}\n${result.stdout}`.replace(/\r/g, "");
  const start = text.search(/^(│\s*)?Error: /m);
  const relevant = (start >= 0 ? text.slice(start) : text)
    .split("\n")
    .map((line) => line.replace(/^[│╷╵]\s?/, "").trimEnd())
    .filter((line, i, all) => line !== "" || (all[i - 1] ?? "") !== "")
    .join("\n")
    .trim();
  return relevant.length > 2000 ? `${relevant.slice(0, 2000)}…` : relevant || `exit code without output`;
}

/** How one command's output is handled besides being returned. */
export interface RunOutputOptions {
  /** Hears stdout and stderr as they come (a run's live output). */
  readonly onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
  /** Keeps the output out of the log even with `log = true` (JSON plans hold secrets). */
  readonly quiet?: boolean;
  /** Written to the command's stdin (`terraform console`). */
  readonly input?: string;
}

export class TerraformCli {
  readonly #options: TerraformCliOptions;

  constructor(options: TerraformCliOptions) {
    this.#options = options;
  }

  get binary(): TerraformBinary {
    return this.#options.binary;
  }

  /** Runs `<binary> <args>`; resolves with any exit code. */
  async run(args: readonly string[], signal?: AbortSignal, output: RunOutputOptions = {}): Promise<ProcessResult> {
    const { binary, processes, workingDir, env, logger } = this.#options;
    const log = this.#options.log && !output.quiet;
    logger.debug("running", { command: `${binary.flavour} ${args[0]}${args[1] && !args[1].startsWith("-") ? ` ${args[1]}` : ""}` });
    const pending = { stdout: "", stderr: "" };
    // Whole lines only: a secret split across two chunks is still one line when it is masked.
    const toLog = log
      ? (chunk: string, stream: "stdout" | "stderr") => {
        const lines = (pending[stream] + chunk).split("\n");
        pending[stream] = lines.pop() ?? "";
        for (const line of lines) if (line.trim()) logger.info(this.#clean(line.trimEnd()), { stream });
      }
      : undefined;
    const listener = output.onOutput;
    const onOutput = toLog && listener
      ? (chunk: string, stream: "stdout" | "stderr") => {
        toLog(chunk, stream);
        listener(chunk, stream);
      }
      : toLog ?? listener;
    const result = await processes.run(binary.path, args, {
      cwd: workingDir, env, signal, onOutput, ...(output.input !== undefined ? { input: output.input } : {}),
    });
    if (log) for (const stream of ["stdout", "stderr"] as const) if (pending[stream].trim()) logger.info(this.#clean(pending[stream]), { stream });
    return { ...result, stdout: this.#clean(result.stdout), stderr: this.#clean(result.stderr) };
  }

  #clean(text: string): string {
    const plain = stripAnsi(text);
    return this.#options.secrets ? this.#options.secrets.mask(plain) : plain;
  }

  /**
   * Runs a command that takes the state lock; while its output says the lock is held by someone else,
   * runs it again after a pause, until lock_timeout has passed since the first try. Then throws
   * CTS_ERR_STATE_LOCKED naming the lock and its holder. A lock error means Terraform changed nothing.
   */
  async runLocking(what: string, args: readonly string[], signal?: AbortSignal, output?: RunOutputOptions): Promise<ProcessResult> {
    const { lockTimeout, lockTimeoutMs, logger, stopping } = this.#options;
    const started = Date.now();
    for (let retry = 1; ; retry++) {
      const result = await this.run(args, signal, output);
      const lock = result.exitCode === 0 ? undefined : stateLockError(`${result.stderr}\n${result.stdout}`);
      if (!lock) return result;
      const left = lockTimeoutMs - (Date.now() - started);
      if (left <= 0 || signal?.aborted) {
        throw new CtsError(
          "CTS_ERR_STATE_LOCKED",
          `Cannot ${what}: the Terraform state is locked by another process (${describeLock(lock)}) and stayed locked for lock_timeout ${lockTimeout} (driver "terraform")`,
        );
      }
      if (retry === 1) {
        logger.warn("the Terraform state is locked, waiting for it", {
          command: `${this.binary.flavour} ${args[0]}`, lock_timeout: lockTimeout, ...lock,
        });
      }
      await sleep(Math.min(lockRetryDelayMs(retry), left), stopping && signal ? AbortSignal.any([signal, stopping]) : stopping ?? signal);
      if (stopping?.aborted) {
        throw new CtsError("CTS_ERR_STATE_LOCKED", `Cannot ${what}: stopped while waiting for the Terraform state lock (${describeLock(lock)})`);
      }
    }
  }

  /** CTS_ERR_DRIVER "Cannot <what>: <binary> <command> exited with N: <Terraform's error>". */
  failure(what: string, args: readonly string[], result: ProcessResult): CtsError {
    return new CtsError(
      "CTS_ERR_DRIVER",
      `Cannot ${what}: ${this.binary.flavour} ${args[0]} exited with ${result.exitCode}: ${terraformErrorText(result)}`,
    );
  }

  /** Runs (waiting for a held lock) and throws `failure(...)` on a non-zero exit. */
  async check(what: string, args: readonly string[], signal?: AbortSignal, output?: RunOutputOptions): Promise<ProcessResult> {
    const result = await this.runLocking(what, args, signal, output);
    if (result.exitCode !== 0) throw this.failure(what, args, result);
    return result;
  }
}
