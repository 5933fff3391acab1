/**
 * @module terraform.tfvars: the Consul data a run hands to the module (`services`, and
 * `catalog_services` / `consul_kv` when the task renders them), properly escaped.
 */
import type { ServiceInstance, TaskInputs } from "../../../core/plugin-api/mod.ts";
import { encodeHclValue } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";

/** The instance's attributes in protocol-v0 order (the insertion order is what gets written). */
function serviceObject(instance: ServiceInstance): Record<string, unknown> {
  return {
    id: instance.id,
    name: instance.name,
    kind: instance.kind,
    address: instance.address,
    port: instance.port,
    meta: instance.meta,
    tags: instance.tags,
    namespace: instance.namespace,
    status: instance.status,
    node: instance.node,
    node_id: instance.node_id,
    node_address: instance.node_address,
    node_datacenter: instance.node_datacenter,
    node_tagged_addresses: instance.node_tagged_addresses,
    node_meta: instance.node_meta,
    cts_user_defined_meta: instance.cts_user_defined_meta,
  };
}

/** The variables part alone (no preamble): what changes from run to run. */
export function renderTfvarsBody(inputs: TaskInputs): string {
  const services: Record<string, unknown> = {};
  for (const [key, instance] of Object.entries(inputs.services)) services[key] = serviceObject(instance);
  const parts = [`services = ${encodeHclValue(services, 0)}\n`];
  if (inputs.catalog_services) parts.push(`catalog_services = ${encodeHclValue(inputs.catalog_services, 0)}\n`);
  if (inputs.consul_kv) parts.push(`consul_kv = ${encodeHclValue(inputs.consul_kv, 0)}\n`);
  return parts.join("\n");
}

export function renderTfvars(taskName: string, description: string, inputs: TaskInputs): string {
  return renderPreamble(taskName, description) + renderTfvarsBody(inputs);
}
