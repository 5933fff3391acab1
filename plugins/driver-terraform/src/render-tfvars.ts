/**
 * @module terraform.tfvars: the Consul data a run hands to the module, laid out as CTS's templates
 * render it (tfvars-templates.ts): variables in template order (condition, then module inputs), an
 * empty `services` last when nothing renders it, quoted keys, one entry a line, a comma after each
 * service. Unlike CTS, every key and value is escaped, so any Consul data reads back unchanged.
 */
import type { ServiceInstance, TaskInputs } from "../../../core/plugin-api/mod.ts";
import { encodeHclValue, quoteHclString } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import type { TfvarsTemplate } from "./tfvars-templates.ts";

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

/** Without a task's templates: `services`, then `catalog_services` and `consul_kv` when present. */
function templatesOf(inputs: TaskInputs): TfvarsTemplate[] {
  const templates: TfvarsTemplate[] = [{ variable: "services", renders: true, text: "" }];
  if (inputs.catalog_services) templates.push({ variable: "catalog_services", renders: true, text: "" });
  if (inputs.consul_kv) templates.push({ variable: "consul_kv", renders: true, text: "" });
  return templates;
}

function entries(inputs: TaskInputs, variable: TfvarsTemplate["variable"]): string[] {
  const out: string[] = [];
  if (variable === "services") {
    for (const [key, instance] of Object.entries(inputs.services)) {
      out.push(`\n  ${quoteHclString(key)} = ${encodeHclValue(serviceObject(instance), 2)},`);
    }
  } else if (variable === "catalog_services") {
    for (const [name, tags] of Object.entries(inputs.catalog_services ?? {})) {
      out.push(`\n  ${quoteHclString(name)} = [${tags.map(quoteHclString).join(", ")}]`);
    }
  } else {
    for (const [key, value] of Object.entries(inputs.consul_kv ?? {})) out.push(`\n  ${quoteHclString(key)} = ${quoteHclString(value)}`);
  }
  return out;
}

/** The variables part alone (no preamble; starts with a newline, as CTS's first template does). */
export function renderTfvarsBody(inputs: TaskInputs, templates: readonly TfvarsTemplate[] = templatesOf(inputs)): string {
  // Written into one array and joined once: large inputs (10 000 instances) stay linear.
  const out: string[] = [];
  let servicesRendered = false;
  for (const template of templates) {
    // A watch-only template renders to an empty line.
    if (!template.renders) {
      out.push("\n");
      continue;
    }
    if (template.variable === "services") servicesRendered = true;
    out.push(`\n${template.variable} = {`, ...entries(inputs, template.variable), "\n}\n");
  }
  if (!servicesRendered) out.push("\nservices = {\n}\n");
  return out.join("");
}

/** The whole file; `templates` (the task's, see tfvarsTemplates) decide order and layout. */
export function renderTfvars(
  taskName: string,
  description: string,
  inputs: TaskInputs,
  templates?: readonly TfvarsTemplate[],
): string {
  // The preamble ends with a blank line; CTS's first template brings its own.
  return renderPreamble(taskName, description).slice(0, -1) + renderTfvarsBody(inputs, templates);
}
