/**
 * @module Turns a task's `variables` (HCL expression strings, as CTS stores them) into plain
 * values, so they can be typed for variables.module.tf and re-encoded for variables.auto.tfvars.
 *
 * Parsing uses @cdktf/hcl2json (HashiCorp's own parser). Its output is Terraform-JSON, where a
 * string is a template: `$${` means a literal `${`, and an unescaped `${...}` is an expression.
 * Variable files cannot reference anything, so only literal values are accepted.
 */
import { parse } from "@cdktf/hcl2json";
import { CtsError, errorMessage } from "../../../../core/plugin-api/mod.ts";
import { isHclIdentifier } from "./hcl-value.ts";

function fromTemplate(text: string, name: string): string {
  if (/(^|[^$])\$\{/.test(text.replace(/\$\$\{/g, "")) || /(^|[^%])%\{/.test(text.replace(/%%\{/g, ""))) {
    throw new CtsError(
      "CTS_ERR_CONFIG_INVALID",
      `Cannot use task variable "${name}": only literal values are allowed, found an expression in ${JSON.stringify(text)}`,
    );
  }
  return text.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
}

function literal(value: unknown, name: string): unknown {
  if (typeof value === "string") return fromTemplate(value, name);
  if (Array.isArray(value)) return value.map((item) => literal(item, name));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[fromTemplate(key, name)] = literal(item, name);
    return out;
  }
  return value;
}

/** Parses every expression; throws CTS_ERR_CONFIG_INVALID naming the variable at fault. */
export async function parseTaskVariables(
  variables: Readonly<Record<string, string>>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(variables).sort()) {
    if (!isHclIdentifier(name)) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use task variable "${name}": the name is not an identifier`);
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = await parse(`${name}.tfvars`, `${name} = ${variables[name]}\n`) as Record<string, unknown>;
    } catch (error) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot parse task variable "${name}": ${errorMessage(error)}`);
    }
    out[name] = literal(parsed[name], name);
  }
  return out;
}
