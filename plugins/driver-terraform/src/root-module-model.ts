/**
 * @module Everything the generated root module depends on, derived once from the task config so
 * that each renderer is a pure function of this model.
 */
import {
  CtsError, type ProviderConfig, type TaskConfig, type TaskInputSpec, type TerraformInputVariable, type TerraformProviderModel,
  type TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";
import { isHclIdentifier } from "./hcl-value.ts";
import type { TfvarsTemplate } from "./tfvars-templates.ts";

export type ProviderModel = TerraformProviderModel;

/** The contract's model plus what only this driver's files need. */
export interface RootModuleModel extends TerraformRootModuleModel {
  /** The Consul-data templates, in CTS's order (terraform.tfvars.tmpl and the terraform.tfvars layout). */
  readonly templates: readonly TfvarsTemplate[];
}

/** True for module sources Terraform reads from the local file system. */
export function isLocalModuleSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith("/") ||
    source === "." || source === ".." || /^[A-Za-z]:[\\/]/.test(source);
}

/** CTS's own input variables, declared and written as CTS does; every other one is a third party's. */
export const BUILTIN_INPUT_VARIABLES: ReadonlySet<string> = new Set(["services", "catalog_services", "consul_kv"]);

/** Names Terraform refuses for variables (they are module block arguments). */
const RESERVED_VARIABLE_NAMES: ReadonlySet<string> = new Set([
  "source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals",
]);

/**
 * Which input variables to declare: those the engine says the task's blocks render. A third-party
 * variable becomes a root-module variable too, so its name must be one Terraform accepts.
 */
export function renderedInputs(
  taskName: string, inputs: readonly TaskInputSpec[],
): { catalogServices: boolean; consulKv: boolean; otherInputs?: readonly TerraformInputVariable[] } {
  const otherInputs = inputs.filter((input) => !BUILTIN_INPUT_VARIABLES.has(input.variable)).map((input): TerraformInputVariable => {
    if (!isHclIdentifier(input.variable) || RESERVED_VARIABLE_NAMES.has(input.variable)) {
      throw new CtsError(
        "CTS_ERR_DRIVER",
        `Cannot initialise task "${taskName}": ${input.block} "${input.type}" publishes the variable "${input.variable}", ` +
          "which Terraform does not accept as a variable name (an identifier other than a module argument)",
      );
    }
    return { name: input.variable, ...(input.declaration ? { declaration: input.declaration } : {}) };
  });
  return {
    catalogServices: inputs.some((input) => input.variable === "catalog_services"),
    consulKv: inputs.some((input) => input.variable === "consul_kv"),
    ...(otherInputs.length > 0 ? { otherInputs } : {}),
  };
}

/**
 * The task's providers, one per name, sorted. An ID the config does not define still gets an
 * (empty) provider, as in CTS.
 */
export function taskProviders(task: TaskConfig, resolved: readonly ProviderConfig[]): ProviderModel[] {
  const byId = new Map(resolved.map((provider) => [provider.id, provider]));
  const models = task.providers.map((id): ProviderModel => {
    const provider = byId.get(id);
    if (!provider) return { name: id.split(".")[0]!, arguments: {} };
    return {
      name: provider.name,
      ...(provider.alias !== undefined ? { alias: provider.alias } : {}),
      ...(provider.auto_commit !== undefined ? { auto_commit: provider.auto_commit } : {}),
      arguments: provider.arguments,
      ...(provider.sensitive ? { sensitive: true } : {}),
    };
  });
  return models.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `required_providers` entries for the providers a task uses. */
export function taskRequiredProviders(
  providers: readonly ProviderModel[],
  requiredProviders: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const provider of providers) {
    if (requiredProviders[provider.name] !== undefined) out[provider.name] = requiredProviders[provider.name];
  }
  return out;
}

/** The value of a provider's variable: its arguments plus `alias` and `auto_commit`, keys sorted. */
export function providerValue(provider: ProviderModel): Record<string, unknown> {
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
