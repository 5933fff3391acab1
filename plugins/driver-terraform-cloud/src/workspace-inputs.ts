/**
 * @module What a run reads besides the uploaded files: the task's inputs, its variables and its
 * providers' settings as HCL-typed Terraform variables (workspace variables for applies, run
 * variables for speculative plans), and its providers' `task_env` as environment variables, the
 * way the local driver hands them to Terraform. Provider settings and `task_env` are sensitive:
 * they often hold credentials.
 */
import type {
  ProviderConfig, ServiceInstance, TaskInputs, TerraformRootModule, TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";

export interface DesiredVariable {
  readonly key: string;
  /** HCL expression (terraform), or the plain value (env). */
  readonly value: string;
  readonly category: "terraform" | "env";
  readonly sensitive: boolean;
}

/** The protocol-v0 attributes of an instance, in CTS's order. */
function serviceObject(instance: ServiceInstance): Record<string, unknown> {
  return {
    id: instance.id, name: instance.name, kind: instance.kind, address: instance.address, port: instance.port,
    meta: instance.meta, tags: instance.tags, namespace: instance.namespace, status: instance.status,
    node: instance.node, node_id: instance.node_id, node_address: instance.node_address,
    node_datacenter: instance.node_datacenter, node_tagged_addresses: instance.node_tagged_addresses,
    node_meta: instance.node_meta, cts_user_defined_meta: instance.cts_user_defined_meta,
  };
}

/** Sorted by category and key, so the set hashes the same whatever order it was built in. */
export function desiredVariables(
  rootModule: TerraformRootModule,
  model: TerraformRootModuleModel,
  inputs: TaskInputs,
  providers: readonly ProviderConfig[],
): DesiredVariable[] {
  const { encodeHclValue } = rootModule;
  const out: DesiredVariable[] = [];
  const terraform = (key: string, value: unknown, sensitive = false) =>
    out.push({ key, value: encodeHclValue(value, 0), category: "terraform", sensitive });
  const services: Record<string, unknown> = {};
  for (const [key, instance] of Object.entries(inputs.services)) services[key] = serviceObject(instance);
  terraform("services", services);
  if (model.catalogServices) terraform("catalog_services", inputs.catalog_services ?? {});
  if (model.consulKv) terraform("consul_kv", inputs.consul_kv ?? {});
  // Third-party blocks' variables (a `nodes` condition): null until their source published.
  for (const input of model.otherInputs ?? []) terraform(input.name, inputs[input.name] ?? null);
  for (const [key, value] of Object.entries(model.variables)) terraform(key, value);
  for (const provider of model.providers) terraform(provider.name, rootModule.providerValue(provider), true);
  // Several providers may set one name; as for the local driver, the later one wins.
  const env = new Map<string, string>();
  for (const provider of providers) for (const [key, value] of Object.entries(provider.task_env)) env.set(key, value);
  for (const [key, value] of env) out.push({ key, value, category: "env", sensitive: true });
  return out.sort((a, b) => (a.category !== b.category ? (a.category < b.category ? 1 : -1) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
