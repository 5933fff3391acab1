/**
 * @module providers.auto.tfvars: each provider's configured arguments (with `alias` and
 * `auto_commit`, without `task_env`) as the value of its object variable.
 */
import { alignAttributes, encodeHclValue } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import type { RootModuleModel } from "./root-module-model.ts";

export function renderProvidersTfvars(model: RootModuleModel): string {
  const entries = model.providers.map((provider): [string, string] => {
    const value: Record<string, unknown> = {};
    const keys = Object.keys(provider.arguments);
    if (provider.alias !== undefined) keys.push("alias");
    if (provider.auto_commit !== undefined) keys.push("auto_commit");
    for (const key of keys.sort()) {
      value[key] = key === "alias" && provider.alias !== undefined
        ? provider.alias
        : key === "auto_commit" && provider.auto_commit !== undefined
        ? provider.auto_commit
        : provider.arguments[key];
    }
    return [provider.name, encodeHclValue(value, 0)];
  });
  // One provider per paragraph: a blank line ends an alignment run, so each is aligned alone.
  const body = entries.map((entry) => `${alignAttributes([entry], 0)[0]}\n`);
  return renderPreamble(model.taskName, model.description) + body.join("\n");
}
