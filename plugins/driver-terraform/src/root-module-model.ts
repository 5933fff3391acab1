/**
 * @module Everything the generated root module depends on, derived once from the task config so
 * that each renderer is a pure function of this model.
 */
import type { ProviderConfig, TaskConfig, TaskInputSpec } from "../../../core/plugin-api/mod.ts";
import type { BackendBlock } from "./backend.ts";
import type { TfvarsTemplate } from "./tfvars-templates.ts";

export interface ProviderModel {
  readonly name: string;
  readonly alias?: string;
  readonly auto_commit?: boolean;
  /** Provider arguments without the meta-arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Holds values read from Vault: passed as `TF_VAR_<name>`, never written to providers.auto.tfvars. */
  readonly sensitive?: boolean;
}

export interface RootModuleModel {
  readonly taskName: string;
  readonly description: string;
  /** Module source; local paths already absolute. */
  readonly moduleSource: string;
  readonly moduleVersion: string;
  /** Whether `catalog_services` / `consul_kv` are declared and passed to the module. */
  readonly catalogServices: boolean;
  readonly consulKv: boolean;
  /** Sorted by name. */
  readonly providers: readonly ProviderModel[];
  /** `required_providers` entries for the task's providers only. */
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  readonly backend?: BackendBlock;
  /** Task variables, parsed to plain values. */
  readonly variables: Readonly<Record<string, unknown>>;
  /** The Consul-data templates, in CTS's order (terraform.tfvars.tmpl and the terraform.tfvars layout). */
  readonly templates: readonly TfvarsTemplate[];
}

/** True for module sources Terraform reads from the local file system. */
export function isLocalModuleSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith("/") ||
    source === "." || source === ".." || /^[A-Za-z]:[\\/]/.test(source);
}

/** Which Consul-derived variables to declare: those the engine says the task's blocks render. */
export function renderedInputs(inputs: readonly TaskInputSpec[]): { catalogServices: boolean; consulKv: boolean } {
  return {
    catalogServices: inputs.some((input) => input.variable === "catalog_services"),
    consulKv: inputs.some((input) => input.variable === "consul_kv"),
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
