/** @module Running child processes (terraform, tofu, ...) without touching runtime APIs. */

export interface ProcessOptions {
  readonly cwd?: string;
  /** Added to (not replacing) the daemon's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Called with each chunk of stdout/stderr as it arrives (for `driver.log = true`). */
  readonly onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
  readonly input?: string;
}

export interface ProcessResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ProcessRunner {
  /** Runs `command` with `args` (never through a shell). Resolves on any exit code. */
  run(command: string, args: readonly string[], options?: ProcessOptions): Promise<ProcessResult>;
  /** Absolute path of `command` found on PATH (or the path itself if it is one), else undefined. */
  which(command: string): Promise<string | undefined>;
}
