/**
 * @module The CLI dispatcher: picks the command, parses its flags, runs it, returns CTS's exit code.
 * Behaves the same under Deno and Node because it only sees argv and a `CliIo`; the commands that
 * are not core's (the dev servers') come from the composition root as `contributions`.
 */
import { ExitCode, type CliCommand } from "./command.ts";
import type { CliIo } from "../runtime/cli-io.ts";
import { commandLoaders, type CliContributions, type CommandLoaders } from "./commands.ts";
import { commandContext } from "./command-context.ts";
import { formatCommandHelp, formatGeneralHelp, PROGRAM } from "./format-help.ts";
import { FlagParseError, parseFlags } from "./parse-flags.ts";
import { VERSION } from "../version.ts";

const HELP_FLAGS = new Set(["-h", "-help", "--help"]);
const VERSION_FLAGS = new Set(["-v", "-version", "--version"]);

export async function runCli(argv: readonly string[], io: CliIo, contributions: CliContributions = {}): Promise<number> {
  const loaders = commandLoaders(contributions);
  if (versionRequested(argv)) return runCommand(loaders, "version", [], io);
  if (argv.length === 0) {
    io.err(await generalHelp(loaders));
    return ExitCode.requiredFlagMissing;
  }
  if (HELP_FLAGS.has(argv[0]!)) {
    io.out(await generalHelp(loaders));
    return ExitCode.ok;
  }
  const match = matchCommand(loaders, argv);
  if (match) return runCommand(loaders, match.name, argv.slice(match.words), io);
  if (argv[0]!.startsWith("-")) {
    // CTS's legacy form: flags without a subcommand mean `start`.
    io.err(`==> Warning: running "${PROGRAM}" without a command is deprecated; use "${PROGRAM} start" instead.\n`);
    return runCommand(loaders, "start", argv, io);
  }
  io.err(`==> Unknown command "${argv.join(" ")}"\n\n${await generalHelp(loaders)}`);
  return ExitCode.requiredFlagMissing;
}

/**
 * CTS (mitchellh/cli) honours `-version` only before the command word: `cts-runtime -once -version`
 * prints the version, `cts-runtime start -version` is an unknown flag of `start` (exit 14).
 */
function versionRequested(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === "--" || !arg.startsWith("-")) return false;
    if (VERSION_FLAGS.has(arg)) return true;
  }
  return false;
}

function matchCommand(loaders: CommandLoaders, argv: readonly string[]): { name: string; words: number } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(" ");
    if (argv.length >= words && loaders.has(name)) return { name, words };
  }
  return undefined;
}

async function runCommand(loaders: CommandLoaders, name: string, args: readonly string[], io: CliIo): Promise<number> {
  const command = await loaders.get(name)!();
  if (args.some((arg) => HELP_FLAGS.has(arg))) {
    io.out(formatCommandHelp(command));
    return ExitCode.ok;
  }
  let parsed;
  try {
    parsed = parseFlags(args, command.flags, io.env);
  } catch (error) {
    if (!(error instanceof FlagParseError)) throw error;
    if (command.flagError) return command.flagError(error.message, args, commandContext(io));
    io.err(`==> ${error.message}\n\n${formatCommandHelp(command)}`);
    return ExitCode.flagParseError;
  }
  return command.run(parsed, commandContext(io));
}

async function generalHelp(loaders: CommandLoaders): Promise<string> {
  const commands = await Promise.all([...loaders.values()].map((load) => load()));
  return formatGeneralHelp(commands.map((command) => ({ name: command.name, summary: command.summary })), VERSION);
}
