/**
 * @module Runs one Terraform command for a task: working dir, layered environment, output to the
 * log when `log = true`, cancellation, and errors that quote what Terraform said.
 */
import { CtsError, type Logger, type ProcessResult, type ProcessRunner } from "../../../core/plugin-api/mod.ts";
import type { TerraformBinary } from "./terraform-binary.ts";

export interface TerraformCliOptions {
  readonly binary: TerraformBinary;
  readonly processes: ProcessRunner;
  readonly workingDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly logger: Logger;
  /** Stream Terraform's output into the log (`driver.log = true`). */
  readonly log: boolean;
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

export class TerraformCli {
  readonly #options: TerraformCliOptions;

  constructor(options: TerraformCliOptions) {
    this.#options = options;
  }

  get binary(): TerraformBinary {
    return this.#options.binary;
  }

  /** Runs `<binary> <args>`; resolves with any exit code. */
  async run(args: readonly string[], signal?: AbortSignal): Promise<ProcessResult> {
    const { binary, processes, workingDir, env, logger, log } = this.#options;
    logger.debug("running", { command: `${binary.flavour} ${args[0]}${args[1] && !args[1].startsWith("-") ? ` ${args[1]}` : ""}` });
    const pending = { stdout: "", stderr: "" };
    const onOutput = log
      ? (chunk: string, stream: "stdout" | "stderr") => {
        const lines = (pending[stream] + chunk).split("\n");
        pending[stream] = lines.pop() ?? "";
        for (const line of lines) if (line.trim()) logger.info(line.trimEnd(), { stream });
      }
      : undefined;
    const result = await processes.run(binary.path, args, { cwd: workingDir, env, signal, onOutput });
    if (log) for (const stream of ["stdout", "stderr"] as const) if (pending[stream].trim()) logger.info(pending[stream], { stream });
    return result;
  }

  /** CTS_ERR_DRIVER "Cannot <what>: <binary> <command> exited with N: <Terraform's error>". */
  failure(what: string, args: readonly string[], result: ProcessResult): CtsError {
    return new CtsError(
      "CTS_ERR_DRIVER",
      `Cannot ${what}: ${this.binary.flavour} ${args[0]} exited with ${result.exitCode}: ${terraformErrorText(result)}`,
    );
  }

  /** Runs and throws `failure(...)` on a non-zero exit. */
  async check(what: string, args: readonly string[], signal?: AbortSignal): Promise<ProcessResult> {
    const result = await this.run(args, signal);
    if (result.exitCode !== 0) throw this.failure(what, args, result);
    return result;
  }
}
