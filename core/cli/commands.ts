/**
 * @module Every CLI command, loaded lazily so that `--help` and `version` start fast.
 * Add a command by adding one line here; its module default-exports a `CliCommand`.
 */
import type { CliCommand } from "./command.ts";

export const commandLoaders: Readonly<Record<string, () => Promise<{ default: CliCommand }>>> = {
  "start": () => import("./commands/start.ts"),
  "validate": () => import("./commands/validate.ts"),
  "version": () => import("./commands/version.ts"),
  "dev": () => import("./commands/dev.ts"),
  "status": () => import("./commands/status.ts"),
  "task create": () => import("./commands/task-create.ts"),
  "task enable": () => import("./commands/task-enable.ts"),
  "task disable": () => import("./commands/task-disable.ts"),
  "task delete": () => import("./commands/task-delete.ts"),
  "task update": () => import("./commands/task-update.ts"),
  "consul-dev": () => import("./commands/consul-dev.ts"),
  "tfc-dev": () => import("./commands/tfc-dev.ts"),
  "vault-dev": () => import("./commands/vault-dev.ts"),
};
