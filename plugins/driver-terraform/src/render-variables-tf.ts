/**
 * @module variables.tf: the Consul-derived input variables (`services` always; `catalog_services`
 * and `consul_kv` when rendered; each variable a third-party block publishes, as its owner declares
 * it) and one object variable per provider.
 *
 * The `services` type is CTS's "service definition protocol v0" attribute for attribute, so every
 * module written for CTS accepts it; comments and descriptions are CTS's too (modules' docs and
 * `terraform console` users see them).
 */
import { alignAttributes, quoteHclString } from "./hcl-value.ts";
import { inferHclType } from "./hcl-type.ts";
import { renderPreamble } from "./preamble.ts";
import type {
  TerraformInputVariable, TerraformProviderModel as ProviderModel, TerraformRootModuleModel as RootModuleModel,
} from "../../../core/plugin-api/mod.ts";

const SERVICES_VARIABLE = `# Service definition protocol v0
variable "services" {
  description = "Consul services monitored by Consul-Terraform-Sync"
  type = map(
    object({
      id        = string
      name      = string
      kind      = string
      address   = string
      port      = number
      meta      = map(string)
      tags      = list(string)
      namespace = string
      status    = string

      node                  = string
      node_id               = string
      node_address          = string
      node_datacenter       = string
      node_tagged_addresses = map(string)
      node_meta             = map(string)

      cts_user_defined_meta = map(string)
    })
  )
}
`;

const CATALOG_SERVICES_VARIABLE = `# Catalog Services definition protocol v0
variable "catalog_services" {
  description = "Consul catalog service names and list of all known tags for a given service"
  type        = map(list(string))
}
`;

const CONSUL_KV_VARIABLE = `# Consul KV definition protocol v0
variable "consul_kv" {
  description = "Consul KV pair"
  type        = map(string)
}
`;

/** A third-party block's variable, as its owner declares it (`type = any` when it does not). */
function otherInputVariable(input: TerraformInputVariable): string {
  const { comment, description, type } = input.declaration ?? {};
  const attributes: [string, string][] = [];
  if (description !== undefined) attributes.push(["description", quoteHclString(description)]);
  attributes.push(["type", type ?? "any"]);
  const heading = comment !== undefined ? `# ${comment}\n` : "";
  return `${heading}variable ${quoteHclString(input.name)} {\n${alignAttributes(attributes, 2).join("\n")}\n}\n`;
}

function providerVariable(provider: ProviderModel): string {
  const value: Record<string, unknown> = { ...provider.arguments };
  if (provider.alias !== undefined) value.alias = provider.alias;
  if (provider.auto_commit !== undefined) value.auto_commit = provider.auto_commit;
  const lines = alignAttributes(
    [
      ["default", "null"],
      ["description", quoteHclString(`Configuration object for ${provider.name}`)],
      ["sensitive", "true"],
      ["type", inferHclType(value, 2)],
    ],
    2,
  );
  return `variable ${quoteHclString(provider.name)} {\n${lines.join("\n")}\n}\n`;
}

export function renderVariablesTf(model: RootModuleModel): string {
  const blocks = [SERVICES_VARIABLE];
  if (model.catalogServices) blocks.push(CATALOG_SERVICES_VARIABLE);
  if (model.consulKv) blocks.push(CONSUL_KV_VARIABLE);
  blocks.push(...(model.otherInputs ?? []).map(otherInputVariable));
  blocks.push(...model.providers.map(providerVariable));
  return renderPreamble(model.taskName, model.description) + blocks.join("\n");
}
