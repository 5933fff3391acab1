/** @module The streams, env and working directory a CLI command talks through (the process's, or a test's buffers). */

/** Where a command writes and reads; tests pass buffers, the CLI passes the process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads one line from stdin (approval prompts); undefined at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}
