/**
 * @module `status [name]` (beyond CTS): a readable table of the daemon's tasks — enabled, status,
 * last run time and last error — from `/v1/status/tasks?include=events`.
 */
import type { CliCommand } from "../command.ts";
import { ExitCode } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { runTaskCommand, ui as makeUi } from "./task-shared.ts";

const usage = "cts-runtime status [options] [task name]";

interface StatusEntry {
  readonly task_name: string;
  readonly status: string;
  readonly enabled: boolean;
  readonly events?: readonly { readonly end_time: string; readonly success: boolean; readonly error: { message: string } | null }[];
}

/** `/v1/status`'s `consul` object (beyond CTS). */
interface ConsulStatus {
  readonly healthy: boolean;
  readonly since: string;
  readonly last_error?: string;
}

export function consulWarning(consul: ConsulStatus): string {
  return `Consul is unreachable since ${consul.since}${consul.last_error ? `: ${consul.last_error}` : ""}; tasks run again once it is back`;
}

/** Aligned columns; the last column is never padded. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]! + 2))).join(""))
    .join("\n");
}

export function statusRows(entries: readonly StatusEntry[]): string[][] {
  const rows = [["TASK", "ENABLED", "STATUS", "LAST RUN", "LAST ERROR"]];
  for (const entry of entries) {
    const last = entry.events?.[0];
    rows.push([
      entry.task_name,
      String(entry.enabled),
      entry.status,
      last?.end_time ?? "-",
      // Only the newest run's error says whether it is broken now; older failures show in the events.
      last && !last.success ? (last.error?.message ?? "").split("\n")[0]! : "-",
    ]);
  }
  return rows;
}

const statusCommand: CliCommand = {
  name: "status",
  summary: "Shows every task's status as a table (or one task's)",
  usage: "Prints each task's name, whether it is enabled, its status (successful, errored, critical,\nunknown), when it last ran and the error of its last run.\n\nArguments: [task name] (after the options) to show one task",
  flags: clientFlags,
  async run(args, io) {
    if (args.positionals.length > 1) {
      makeUi(io).error(`this command takes at most 1 argument (a task name), got ${args.positionals.length}\n\nUsage: ${usage}`);
      return ExitCode.requiredFlagMissing;
    }
    return await runTaskCommand(args, io, "status", args.positionals.length === 1 ? 1 : 0, async (client, [name], ui) => {
      const path = name === undefined ? "/v1/status/tasks" : `/v1/status/tasks/${encodeURIComponent(name)}`;
      const body = (await client.request("GET", `${path}?include=events`)).body as Record<string, StatusEntry>;
      const entries = Object.values(body ?? {}).sort((a, b) => (a.task_name < b.task_name ? -1 : 1));
      const overall = (await client.request("GET", "/v1/status")).body as { consul?: ConsulStatus } | undefined;
      if (overall?.consul && !overall.consul.healthy) ui.error(consulWarning(overall.consul));
      if (entries.length === 0) {
        ui.info("No tasks");
        return 0;
      }
      io.out(`${formatTable(statusRows(entries))}\n`);
      return 0;
    });
  },
};

export default statusCommand;
