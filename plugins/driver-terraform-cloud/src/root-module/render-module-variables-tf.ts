/** @module variables.module.tf: the task's own variables, typed from their values, `default = null`. */
import { alignAttributes } from "./hcl-value.ts";
import { inferHclType } from "./hcl-type.ts";
import { renderPreamble } from "./preamble.ts";
import type { RootModuleModel } from "./root-module-model.ts";

export function renderModuleVariablesTf(model: RootModuleModel): string | undefined {
  const names = Object.keys(model.variables).sort();
  if (names.length === 0) return undefined;
  const blocks = names.map((name) => {
    const lines = alignAttributes([["default", "null"], ["type", inferHclType(model.variables[name], 2)]], 2);
    return `variable "${name}" {\n${lines.join("\n")}\n}\n`;
  });
  return renderPreamble(model.taskName, model.description) + blocks.join("\n");
}
