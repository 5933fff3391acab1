/** @module The shape of a CLI command: Go-style flags (single or double dash), help text, exit code. */

import type { CliIo } from "../runtime/cli-io.ts";

export type FlagType = "string" | "strings" | "bool" | "int";

export interface FlagSpec {
  /** Without dashes, e.g. `config-file`. */
  readonly name: string;
  readonly type: FlagType;
  readonly help: string;
  readonly default?: string | boolean | number;
  /** Environment variable used when the flag is absent (CTS_ADDRESS ...). */
  readonly env?: string;
  /** Shown in help as the value placeholder, e.g. `<path>`. */
  readonly placeholder?: string;
  readonly hidden?: boolean;
}

export interface ParsedArgs {
  /** Flag values by name; `strings` flags are arrays; absent flags take default/env. */
  readonly flags: Readonly<Record<string, string | boolean | number | readonly string[] | undefined>>;
  /** Which flags were actually given on the command line. */
  readonly given: ReadonlySet<string>;
  readonly positionals: readonly string[];
  /** Every flag occurrence in command-line order (-config-file/-config-dir interleave meaningfully). */
  readonly occurrences: readonly { readonly name: string; readonly value: string }[];
}

export interface CliCommand {
  /** Words that select it, e.g. `start`, `task create`, `consul-dev`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line(s) and description shown by `--help` above the flag list. */
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  /** What follows the command name on the help's usage line (CTS: `[-help] [options] <task name>`); default `[options]`. */
  readonly synopsis?: string;
  /** Prints a flag parse error its own way (CTS's task commands) and returns the exit code; default: `==> <message>` + help. */
  flagError?(message: string, args: readonly string[], io: CliIo): number;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** CTS's exit codes (command/cli.go). */
export const ExitCode = {
  ok: 0,
  runtimeError: 11,
  interrupt: 12,
  requiredFlagMissing: 13,
  flagParseError: 14,
  configError: 15,
  driverError: 16,
} as const;
