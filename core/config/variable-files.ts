/**
 * @module Reads a task's `variable_files` (.tfvars) into `variables`, whose values are HCL expression
 * strings as in CTS (`"\"a\""` for the string a). Later files override earlier keys.
 */
import { parse as parseHcl } from "@cdktf/hcl2json";
import { readTextFile, resolvePath } from "../runtime/config-files.ts";
import { evaluateHclValue, HclEvaluationError } from "./hcl-constant.ts";

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
    const syntax = file.endsWith(".json") ? "json" : "hcl";
    for (const [key, value] of Object.entries(parsed)) {
      if (syntax === "json") {
        out[key] = toExpression(value, syntax);
        continue;
      }
      // CTS evaluates each value with no variables and no functions and keeps the result.
      try {
        out[key] = toExpression(evaluateHclValue(value), "json");
      } catch (error) {
        if (!(error instanceof HclEvaluationError)) throw error;
        throw new Error(`cannot read variable file "${file}": "${key}" = ${toExpression(value, syntax)} cannot be evaluated ` +
          `(variable files hold values: no variables, no functions): ${error.message}`);
      }
    }
  }
  return out;
}

/**
 * An HCL expression for a parsed value.
 *
 * From HCL, hcl2json returns strings as template source with backslash escapes decoded: `$${`
 * stays `$${` and a real interpolation stays `${...}`, so only quotes and control characters need
 * re-escaping (a whole-value `"${expr}"` is a non-literal expression, returned bare). JSON tfvars
 * hold literal strings, so their `${` and `%{` must become template escapes.
 */
export function toExpression(value: unknown, syntax: "hcl" | "json"): string {
  if (syntax === "hcl" && typeof value === "string") {
    const whole = /^\$\{([^]*)\}$/.exec(value);
    if (whole !== null && !whole[1]!.includes("${")) return whole[1]!;
  }
  if (value === null || (typeof value !== "object" && typeof value !== "string")) return String(value);
  // JSON's string and collection syntax is valid HCL (objects may use ":").
  return JSON.stringify(syntax === "json" ? escapeTemplates(value) : value);
}

function escapeTemplates(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\$\{/g, "$$${").replace(/%\{/g, "%%{");
  if (Array.isArray(value)) return value.map(escapeTemplates);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, escapeTemplates(item)]));
  }
  return value;
}
