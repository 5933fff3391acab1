/**
 * @module providers.auto.tfvars: each provider's configured arguments (with `alias` and
 * `auto_commit`, without `task_env`) as the value of its object variable. A provider holding
 * values read from Vault is not written here: the same value goes to Terraform as `TF_VAR_<name>`
 * in the process environment (see `sensitiveProviderVariables`), and a comment says so.
 */
import { alignAttributes, encodeHclValue } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import { providerValue, type RootModuleModel } from "./root-module-model.ts";

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
