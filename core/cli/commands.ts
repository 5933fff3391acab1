/**
 * @module Every CLI command, loaded lazily so that `--help` and `version` start fast: core's own,
 * then those the composition root contributes (main.ts: the dev servers' commands). Add a core
 * command by adding one line here; its module default-exports a `CliCommand`.
 */
import type { CliCommand, CliCommandContribution } from "../plugin-api/mod.ts";
import type { DevEnvironment } from "./dev-environment.ts";

/** What the composition root adds to the CLI; core/cli imports none of it. */
export interface CliContributions {
  /** Listed after core's commands, in this order. */
  readonly commands?: readonly CliCommandContribution[];
  /** The servers `cts-runtime dev` starts around the daemon; loaded when `dev` runs. */
  readonly devEnvironment?: () => Promise<DevEnvironment>;
}

export type CommandLoaders = ReadonlyMap<string, () => Promise<CliCommand>>;

const defaultExport = async (module: Promise<{ default: CliCommand }>): Promise<CliCommand> => (await module).default;

export function commandLoaders(contributions: CliContributions): CommandLoaders {
  const loaders = new Map<string, () => Promise<CliCommand>>([
    ["start", () => defaultExport(import("./commands/start.ts"))],
    ["validate", () => defaultExport(import("./commands/validate.ts"))],
    ["version", () => defaultExport(import("./commands/version.ts"))],
    ["dev", async () => (await import("./commands/dev.ts")).devCommand(contributions.devEnvironment)],
    ["status", () => defaultExport(import("./commands/status.ts"))],
    ["task create", () => defaultExport(import("./commands/task-create.ts"))],
    ["task enable", () => defaultExport(import("./commands/task-enable.ts"))],
    ["task disable", () => defaultExport(import("./commands/task-disable.ts"))],
    ["task delete", () => defaultExport(import("./commands/task-delete.ts"))],
    ["task update", () => defaultExport(import("./commands/task-update.ts"))],
  ]);
  for (const contribution of contributions.commands ?? []) {
    if (loaders.has(contribution.name)) throw new Error(`Cannot add the CLI command "${contribution.name}": there is one of that name already`);
    loaders.set(contribution.name, () => loadContributed(contribution));
  }
  return loaders;
}

async function loadContributed(contribution: CliCommandContribution): Promise<CliCommand> {
  const command = await contribution.load();
  if (command.name !== contribution.name) {
    throw new Error(`Cannot load the CLI command "${contribution.name}": its module names it "${command.name}"`);
  }
  return command;
}
