/**
 * @module Workspace and run variables as `.auto.tfvars` files. Plain values go to a JSON file,
 * where any key is allowed (Terraform warns about undeclared ones rather than failing to parse)
 * and strings are taken literally (`${` stays `${`, as HCP Terraform treats plain values); HCL-typed
 * values and run variables (HCL expressions) go to an HCL file as written.
 */
import type { RunVariable, VariableRecord } from "../state/records.ts";

export interface VariableFiles {
  /** `.auto.tfvars.json` content. */
  readonly json: string;
  /** `.auto.tfvars` content. */
  readonly hcl: string;
}

/** Run variables win over a workspace variable of the same key. */
export function variableFiles(workspaceVariables: readonly VariableRecord[], runVariables: readonly RunVariable[]): VariableFiles {
  const runKeys = new Set(runVariables.map((variable) => variable.key));
  const plain: Record<string, string> = {};
  const hclLines: string[] = [];
  for (const variable of workspaceVariables) {
    if (variable.category !== "terraform" || runKeys.has(variable.key)) continue;
    if (variable.hcl) hclLines.push(`${variable.key} = ${variable.value}`);
    else plain[variable.key] = variable.value;
  }
  for (const variable of runVariables) hclLines.push(`${variable.key} = ${variable.value}`);
  return { json: `${JSON.stringify(plain, null, 2)}\n`, hcl: hclLines.length === 0 ? "" : `${hclLines.join("\n")}\n` };
}
