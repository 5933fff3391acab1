/** @module `-config-file` / `-config-dir` occurrences, kept in command-line order as CTS processes them. */
import type { FlagSpec, ParsedArgs } from "./command.ts";

export const configPathFlags: readonly FlagSpec[] = [
  { name: "config-file", type: "strings", placeholder: "<path>", help: "A configuration file (HCL or JSON)." },
  { name: "config-dir", type: "strings", placeholder: "<path>", help: "A directory of configuration files, read in lexical order." },
];

export interface ConfigPath {
  readonly kind: "file" | "dir";
  readonly path: string;
}

export function configPathsOf(args: ParsedArgs): ConfigPath[] {
  return args.occurrences
    .filter((flag) => flag.name === "config-file" || flag.name === "config-dir")
    .map((flag) => ({ kind: flag.name === "config-file" ? "file" : "dir", path: flag.value }));
}
