/**
 * @module What a run reads besides the uploaded files: the task's inputs, its variables and its
 * providers' settings, as HCL-typed Terraform variables (workspace variables for applies, run
 * variables for speculative plans). Provider settings are sensitive: they often hold credentials.
 */
import type {
  ServiceInstance, TaskInputs, TerraformRootModule, TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";

export interface DesiredVariable {
  readonly key: string;
  /** HCL expression. */
  readonly value: string;
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

/** Sorted by key, so the set hashes the same whatever order it was built in. */
export function desiredVariables(
  rootModule: TerraformRootModule,
  model: TerraformRootModuleModel,
  inputs: TaskInputs,
): DesiredVariable[] {
  const { encodeHclValue } = rootModule;
  const out: DesiredVariable[] = [];
  const services: Record<string, unknown> = {};
  for (const [key, instance] of Object.entries(inputs.services)) services[key] = serviceObject(instance);
  out.push({ key: "services", value: encodeHclValue(services, 0), sensitive: false });
  if (model.catalogServices) out.push({ key: "catalog_services", value: encodeHclValue(inputs.catalog_services ?? {}, 0), sensitive: false });
  if (model.consulKv) out.push({ key: "consul_kv", value: encodeHclValue(inputs.consul_kv ?? {}, 0), sensitive: false });
  // Third-party blocks' variables (a `nodes` condition): null until their source published.
  for (const input of model.otherInputs ?? []) out.push({ key: input.name, value: encodeHclValue(inputs[input.name] ?? null, 0), sensitive: false });
  for (const [key, value] of Object.entries(model.variables)) out.push({ key, value: encodeHclValue(value, 0), sensitive: false });
  for (const provider of model.providers) {
    out.push({ key: provider.name, value: encodeHclValue(rootModule.providerValue(provider), 0), sensitive: true });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
