/**
 * @module Reads a task's `variable_files` (.tfvars) into `variables`, whose values are HCL expression
 * strings as in CTS (`"\"a\""` for the string a). Later files override earlier keys.
 */
import { parse as parseHcl } from "@cdktf/hcl2json";
import { readTextFile, resolvePath } from "../runtime/config-files.ts";

/** Variables from `files` (relative paths against `cwd`); throws with the file in the message. */
export async function readVariableFiles(files: readonly string[], cwd: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of files) {
    const path = resolvePath(cwd, file);
    let parsed: Record<string, unknown>;
    try {
      parsed = file.endsWith(".json")
        ? JSON.parse(await readTextFile(path))
        : await parseHcl(file, await readTextFile(path)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`cannot read variable file "${file}": ${(error as Error).message}`);
    }
    for (const [key, value] of Object.entries(parsed)) out[key] = toExpression(value);
  }
  return out;
}

/** An HCL expression for a parsed value; hcl2json returns non-literal expressions as `"${...}"`. */
export function toExpression(value: unknown): string {
  if (typeof value === "string") {
    const whole = /^\$\{([^]*)\}$/.exec(value);
    if (whole !== null && !whole[1]!.includes("${")) return whole[1]!;
    return JSON.stringify(value).replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
  }
  if (value === null || typeof value !== "object") return String(value);
  return JSON.stringify(value);
}
