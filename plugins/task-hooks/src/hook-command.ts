/**
 * @module Runs one hook command under the daemon's process supervisor (`processRunnerToken`, the
 * one Terraform runs under): no shell, in the task's working directory, with the run's environment
 * (`CTS_TASK_NAME`, `CTS_RUN_ID`, `CTS_RUN_STATUS`, `CTS_RUN_FILE`, `CTS_HOOK`) added to the daemon's.
 * It ends at its time limit or at the daemon's stop (SIGTERM, then SIGKILL after a grace), and its
 * report holds its masked, bounded output.
 */
import {
  errorMessage, type FileSystem, formatGoDuration, type HookReport, parseGoDuration, type ProcessRunner, type SecretMasker,
} from "../../../core/plugin-api/mod.ts";
import { HookOutput } from "./hook-output.ts";
import type { HookConfig } from "./hooks-block.ts";

/** How long a stopped command has to end after SIGTERM before its process group is killed. */
export const KILL_GRACE_MS = 5_000;

export interface HookCommandDeps {
  readonly processes: ProcessRunner;
  readonly fs: FileSystem;
  readonly masker: SecretMasker;
  /** Characters of output kept in the report. */
  readonly maxOutputChars: number;
}

export interface HookRun {
  /** `pre_apply`, `post_apply[1]`: the report's name. */
  readonly name: string;
  readonly hook: HookConfig;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The daemon's stop. */
  readonly signal: AbortSignal;
}

export async function runHookCommand(run: HookRun, deps: HookCommandDeps): Promise<HookReport> {
  const started = Date.now();
  const limitMs = parseGoDuration(run.hook.timeout)!;
  const output = new HookOutput(deps.maxOutputChars);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error("time limit")), limitMs);
  const [program, ...args] = run.hook.command as [string, ...string[]];
  const report = (fields: Omit<HookReport, "name" | "duration_ms" | "output" | "output_omitted">): HookReport => {
    const { output: text, omitted } = output.result(deps.masker);
    return {
      name: run.name, ...fields, ...(text !== "" ? { output: text } : {}), ...(omitted > 0 ? { output_omitted: omitted } : {}),
      duration_ms: Date.now() - started,
    };
  };
  try {
    const result = await deps.processes.run(resolveProgram(program, deps.fs), args, {
      cwd: run.cwd,
      env: run.env,
      signal: AbortSignal.any([run.signal, timeout.signal]),
      onOutput: (chunk) => output.add(chunk),
      maxOutputChars: output.streamLimit,
      killAfterMs: KILL_GRACE_MS,
    });
    if (result.exitCode === 0) return report({ outcome: "ok", exit_code: 0 });
    return report({ outcome: "failed", exit_code: result.exitCode, error: `exited with status ${result.exitCode}` });
  } catch (error) {
    if (timeout.signal.aborted) return report({ outcome: "timed_out", error: `stopped after its time limit of ${formatGoDuration(limitMs)}` });
    if (run.signal.aborted) return report({ outcome: "failed", error: "stopped: the daemon is stopping" });
    return report({ outcome: "failed", error: `cannot run ${JSON.stringify(program)}: ${deps.masker.mask(errorMessage(error))}` });
  } finally {
    clearTimeout(timer);
  }
}

/** A program named by a relative path (`./hooks/commit.sh`) is the daemon's, as a task's module path is. */
function resolveProgram(program: string, fs: FileSystem): string {
  return program.includes("/") && !program.startsWith("/") ? fs.resolve(program) : program;
}
