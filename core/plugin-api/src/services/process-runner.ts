/** @module Running child processes (terraform, tofu, ...) without touching runtime APIs. */

export interface ProcessOptions {
  readonly cwd?: string;
  /** Added to (not replacing) the daemon's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Called with each chunk of stdout/stderr as it arrives (for `driver.log = true`). */
  readonly onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
  readonly input?: string;
  /**
   * At most this many characters of each stream are kept in the result
   * (the last ones: where errors are), so a chatty command cannot fill the daemon's memory.
   * `onOutput` still sees every chunk. @default everything
   */
  readonly maxOutputChars?: number;
  /**
   * After `signal` aborts, the command gets SIGTERM; when it has not ended
   * this many milliseconds later, its whole process group is killed. @default never (it is waited for)
   */
  readonly killAfterMs?: number;
}

export interface ProcessResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Characters left out of `stdout` and `stderr` by `maxOutputChars`. */
  readonly omittedChars?: number;
}

export interface ProcessRunner {
  /** Runs `command` with `args` (never through a shell). Resolves on any exit code. */
  run(command: string, args: readonly string[], options?: ProcessOptions): Promise<ProcessResult>;
  /** Absolute path of `command` found on PATH (or the path itself if it is one), else undefined. */
  which(command: string): Promise<string | undefined>;
}
