/**
 * @module The root module a task's runs execute in HCP Terraform, derived once from the task config.
 * Same shape as the terraform driver's (a plugin copies, it does not import a sibling), without a
 * backend: state lives in the workspace. A local module is shipped inside the upload as `./module`.
 */
import type { ProviderConfig, TaskConfig, TaskInputSpec } from "../../../../core/plugin-api/mod.ts";

export interface ProviderModel {
  readonly name: string;
  readonly alias?: string;
  readonly auto_commit?: boolean;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface RootModuleModel {
  readonly taskName: string;
  readonly description: string;
  /** What main.tf's module block names: `./module` for a local module, else the registry/remote source. */
  readonly moduleSource: string;
  /** The absolute directory copied into the upload, for a local module. */
  readonly localModuleDir?: string;
  readonly moduleVersion: string;
  readonly catalogServices: boolean;
  readonly consulKv: boolean;
  /** Sorted by name. */
  readonly providers: readonly ProviderModel[];
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  /** Task variables, parsed to plain values (for their types). */
  readonly variables: Readonly<Record<string, unknown>>;
}

/** Where a local module sits inside the uploaded configuration. */
export const LOCAL_MODULE_DIR = "module";

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

/** The task's providers, one per name, sorted; an ID the config does not define gets an empty provider, as in CTS. */
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
    };
  });
  return models.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

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

/** A provider's variable value: its arguments plus `alias` and `auto_commit`. */
export function providerValue(provider: ProviderModel): Record<string, unknown> {
  const value: Record<string, unknown> = { ...provider.arguments };
  if (provider.alias !== undefined) value.alias = provider.alias;
  if (provider.auto_commit !== undefined) value.auto_commit = provider.auto_commit;
  return value;
}
