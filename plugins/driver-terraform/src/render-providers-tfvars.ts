/**
 * @module providers.auto.tfvars: each provider's configured arguments (with `alias` and
 * `auto_commit`, without `task_env`) as the value of its object variable. A provider holding
 * values read from Vault is not written here: the same value goes to Terraform as `TF_VAR_<name>`
 * in the process environment (see `sensitiveProviderVariables`), and a comment says so.
 */
import { alignAttributes, encodeHclValue } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import type { ProviderModel, RootModuleModel } from "./root-module-model.ts";

/** The value of a provider's variable: its arguments plus `alias` and `auto_commit`, keys sorted. */
function providerValue(provider: ProviderModel): Record<string, unknown> {
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
  return value;
}

export function renderProvidersTfvars(model: RootModuleModel): string {
  // One provider per paragraph: a blank line ends an alignment run, so each is aligned alone.
  const body = model.providers.map((provider) => provider.sensitive
    ? `# ${provider.name}: holds values read from Vault, passed in the environment as TF_VAR_${provider.name}\n`
    : `${alignAttributes([[provider.name, encodeHclValue(providerValue(provider), 0)]], 0)[0]}\n`);
  return renderPreamble(model.taskName, model.description) + body.join("\n");
}

/** `TF_VAR_<name>` → HCL value, for every provider that holds values read from Vault. */
export function sensitiveProviderVariables(model: RootModuleModel): Record<string, string> {
  const env: Record<string, string> = {};
  for (const provider of model.providers) {
    if (provider.sensitive) env[`TF_VAR_${provider.name}`] = encodeHclValue(providerValue(provider), 0);
  }
  return env;
}
