/**
 * @module The task module's outputs after an apply. Terraform keeps only the root module's outputs
 * in state and the root module CTS writes declares none, so they are read with `terraform console`
 * (one expression, no state change): the non-sensitive outputs as one JSON document. Sensitive and
 * ephemeral outputs are left out of the expression, so their values never reach the daemon.
 */
import type { RunOutput } from "../../../core/plugin-api/mod.ts";
import type { PlanFindings } from "./plan-findings.ts";

/** An HCL string literal of `text` (JSON's escapes are HCL's; `${` and `%{` need doubling). */
function hclString(text: string): string {
  return JSON.stringify(text).replace(/([$%])\{/g, (_, mark: string) => `${mark}${mark}{`);
}

/** The console expression that prints the readable outputs of `module.<moduleName>` as JSON. */
export function outputsExpression(moduleName: string, hidden: readonly string[]): string {
  const skip = `[${hidden.map(hclString).join(", ")}]`;
  return `jsonencode({ for name, value in module.${moduleName} : name => value if !contains(${skip}, name) })\n`;
}

/**
 * The outputs from the console's answer: its last line is the JSON text as an HCL string. Every
 * declared output is listed; a hidden one as sensitive without value. Undefined when the answer is
 * not what the expression prints (an older Terraform, a module that failed to evaluate).
 */
export function parseOutputs(stdout: string, outputs: PlanFindings["outputs"]): Record<string, RunOutput> | undefined {
  const line = stdout.trim().split("\n").pop()?.trim() ?? "";
  if (!line.startsWith("\"")) return undefined;
  let values: Record<string, unknown>;
  try {
    values = JSON.parse(JSON.parse(line) as string) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (values === null || typeof values !== "object" || Array.isArray(values)) return undefined;
  const result: Record<string, RunOutput> = {};
  for (const name of outputs.names) {
    if (outputs.hidden.includes(name)) result[name] = { sensitive: true };
    else if (name in values) result[name] = { value: values[name] };
  }
  return result;
}
