/**
 * @module variables.module.tf and variables.auto.tfvars: the task's own `variables`, declared
 * with inferred types and `default = null`, and their values. Neither file exists when the task
 * has no variables.
 */
import { alignAttributes, encodeHclValue } from "./hcl-value.ts";
import { inferHclType } from "./hcl-type.ts";
import { renderPreamble } from "./preamble.ts";
import type { TerraformRootModuleModel as RootModuleModel } from "../../../core/plugin-api/mod.ts";

/** variables.module.tf, or undefined when the task has no variables. */
export function renderModuleVariablesTf(model: RootModuleModel): string | undefined {
  const names = Object.keys(model.variables).sort();
  if (names.length === 0) return undefined;
  const blocks = names.map((name) => {
    const lines = alignAttributes([["default", "null"], ["type", inferHclType(model.variables[name], 2)]], 2);
    return `variable "${name}" {\n${lines.join("\n")}\n}\n`;
  });
  return renderPreamble(model.taskName, model.description) + blocks.join("\n");
}

/** variables.auto.tfvars, or undefined when the task has no variables. */
export function renderVariablesAutoTfvars(model: RootModuleModel): string | undefined {
  const names = Object.keys(model.variables).sort();
  if (names.length === 0) return undefined;
  const lines = alignAttributes(names.map((name) => [name, encodeHclValue(model.variables[name], 0)]), 0);
  return renderPreamble(model.taskName, model.description) + lines.join("\n") + "\n";
}
