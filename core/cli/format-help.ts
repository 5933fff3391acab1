/** @module Help text for the command list and for one command. */
import type { CliCommand, FlagSpec } from "./command.ts";
import { invokedProgramName } from "../runtime/program-name.ts";

/** `cts-runtime`, or `consul-terraform-sync` when started under CTS's name. */
export const PROGRAM = invokedProgramName();

export function formatCommandHelp(command: CliCommand): string {
  const synopsis = command.synopsis ?? (command.flags.length ? "[options]" : "");
  const lines = [`Usage: ${PROGRAM} ${command.name} ${synopsis}`.trimEnd(), ""];
  lines.push(...command.usage.split("\n").map((line) => (line ? `  ${line}` : "")), "");
  const visible = command.flags.filter((flag) => !flag.hidden);
  if (visible.length > 0) {
    lines.push("Options:", "");
    for (const flag of visible) lines.push(...formatFlag(flag), "");
  }
  return lines.join("\n");
}

/** CTS's flag line (command/cli.go templateDefaultValue): `-auto-approve [Default: false]`. */
function formatFlag(flag: FlagSpec): string[] {
  const value = flag.type === "bool" ? "" : `=${flag.placeholder ?? "<value>"}`;
  const notes: string[] = [];
  if (flag.type === "strings") notes.push("Can be repeated.");
  if (flag.env) notes.push(`Environment: ${flag.env}.`);
  const fallback = flag.default !== undefined && flag.default !== "" ? ` [Default: ${String(flag.default)}]` : "";
  return [`  -${flag.name}${value}${fallback}`, `      ${[flag.help, ...notes].join(" ")}`];
}

export function formatGeneralHelp(commands: readonly { name: string; summary: string }[], version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 4;
  return [
    // CTS's first line and heading (command/cli.go), which scripts match.
    `Usage CLI: ${PROGRAM} <command> [-help] [options]`,
    "",
    `  cts-runtime ${version}: watches Consul and runs tasks (Terraform modules, or any driver a plugin adds)`,
    "  when the watched services, catalog or KV data change. A drop-in replacement for Consul-Terraform-Sync.",
    "",
    "Commands:",
    "",
    ...commands.map((command) => `    ${command.name.padEnd(width)}${command.summary}`),
    "",
    `Run "${PROGRAM} <command> --help" for a command's options.`,
    "",
  ].join("\n");
}
