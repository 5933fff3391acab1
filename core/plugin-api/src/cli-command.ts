/**
 * @module The CLI command extension point: the shape of a command a package contributes to
 * `cts-runtime` (Go-style flags, help text, CTS's exit codes) and what it may use while it runs.
 */
import type { FileSystem } from "./services/file-system.ts";

export type CliFlagType = "string" | "strings" | "bool" | "int";

export interface CliFlagSpec {
  /** Without dashes, e.g. `config-file`. */
  readonly name: string;
  readonly type: CliFlagType;
  readonly help: string;
  readonly default?: string | boolean | number;
  /** Environment variable used when the flag is absent (CTS_ADDRESS ...). */
  readonly env?: string;
  /** Shown in help as the value placeholder, e.g. `<path>`. */
  readonly placeholder?: string;
  readonly hidden?: boolean;
}

export interface CliParsedArgs {
  /** Flag values by name; `strings` flags are arrays; absent flags take default/env. */
  readonly flags: Readonly<Record<string, string | boolean | number | readonly string[] | undefined>>;
  /** Which flags were actually given on the command line. */
  readonly given: ReadonlySet<string>;
  readonly positionals: readonly string[];
  /** Every flag occurrence in command-line order (-config-file/-config-dir interleave meaningfully). */
  readonly occurrences: readonly { readonly name: string; readonly value: string }[];
}

/** Where a command writes and reads: the process's streams, or a test's buffers. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads one line from stdin (approval prompts); undefined at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** What a running command gets from the runtime, so that it needs no `node:*` or `Deno.*`. */
export interface CliCommandContext extends CliIo {
  /** The file system; relative paths resolve against `cwd`. */
  readonly files: FileSystem;
  /**
   * Aborted at the first SIGINT, SIGTERM or SIGQUIT, with the signal's name as its `reason`.
   * The signals are hooked at the first call only, so a command that never asks keeps their default.
   */
  shutdownSignal(): AbortSignal;
}

export interface CliCommand {
  /** Words that select it, e.g. `start`, `task create`, `consul-dev`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line(s) and description shown by `--help` above the flag list. */
  readonly usage: string;
  readonly flags: readonly CliFlagSpec[];
  /** What follows the command name on the help's usage line (CTS: `[-help] [options] <task name>`); default `[options]`. */
  readonly synopsis?: string;
  /** Prints a flag parse error its own way (CTS's task commands) and returns the exit code; default: `==> <message>` + help. */
  flagError?(message: string, args: readonly string[], context: CliCommandContext): number;
  /** Runs the command; resolves to the process's exit code (`CliExitCode`). */
  run(args: CliParsedArgs, context: CliCommandContext): Promise<number>;
}

/**
 * A command a package adds to the CLI, loaded only when it runs or when help lists it, so that
 * `cts-runtime version` never loads what a command needs.
 */
export interface CliCommandContribution {
  /** The words that select it; the loaded command's `name` must be the same. */
  readonly name: string;
  load(): Promise<CliCommand>;
}

/** CTS's exit codes (command/cli.go). */
export const CliExitCode = {
  ok: 0,
  runtimeError: 11,
  interrupt: 12,
  requiredFlagMissing: 13,
  flagParseError: 14,
  configError: 15,
  driverError: 16,
} as const;
