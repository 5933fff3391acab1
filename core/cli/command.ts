/**
 * @module The shape of a CLI command, core's names for the contract's command extension point
 * (core/plugin-api/src/cli-command.ts): core's commands and contributed ones are the same kind.
 */
import { CliExitCode } from "../plugin-api/mod.ts";
import type { CliCommand as ContractCliCommand, CliFlagSpec, CliFlagType, CliParsedArgs } from "../plugin-api/mod.ts";

export type FlagType = CliFlagType;
export type FlagSpec = CliFlagSpec;
export type ParsedArgs = CliParsedArgs;
export type CliCommand = ContractCliCommand;

/** CTS's exit codes (command/cli.go). */
export const ExitCode = CliExitCode;
