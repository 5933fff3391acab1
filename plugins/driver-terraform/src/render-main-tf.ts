/** @module main.tf: the terraform block (version, providers, backend), provider blocks and the module call. */
import { alignAttributes, encodeHclValue, hclObjectKey, quoteHclString } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import type { TerraformProviderModel as ProviderModel, TerraformRootModuleModel as RootModuleModel } from "../../../core/plugin-api/mod.ts";

/** Lowest Terraform that understands the generated files. No upper bound: new releases keep working. */
export const REQUIRED_TERRAFORM_VERSION = ">= 0.13.0";

function sortedKeys(object: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(object).sort();
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function renderTerraformBlock(model: RootModuleModel): string {
  const parts = [`  required_version = ${quoteHclString(REQUIRED_TERRAFORM_VERSION)}`];
  const required = sortedKeys(model.requiredProviders);
  if (required.length > 0) {
    const lines = alignAttributes(
      required.map((name) => [hclObjectKey(name), encodeHclValue(model.requiredProviders[name], 4)]),
      4,
    );
    parts.push(`  required_providers {\n${lines.join("\n")}\n  }`);
  }
  if (model.backend) {
    const config = model.backend.config;
    const lines = alignAttributes(sortedKeys(config).map((key) => [key, encodeHclValue(config[key], 4)]), 4);
    parts.push(`  backend ${quoteHclString(model.backend.type)} {${lines.length ? `\n${lines.join("\n")}\n  ` : ""}}`);
  }
  return `terraform {\n${parts.join("\n")}\n}\n`;
}

/** Body lines pointing each argument at `var.<provider>...`; object arguments become nested blocks. */
function providerBody(args: Readonly<Record<string, unknown>>, reference: string, indent: number): string[] {
  const pad = " ".repeat(indent);
  const attributes: [string, string][] = [];
  const blocks: string[] = [];
  for (const key of sortedKeys(args)) {
    if (isObject(args[key])) {
      const inner = providerBody(args[key], `${reference}.${key}`, indent + 2);
      blocks.push(`${pad}${key} {${inner.length ? `\n${inner.join("\n")}\n${pad}` : ""}}`);
    } else attributes.push([key, `${reference}.${key}`]);
  }
  return [...alignAttributes(attributes, indent), ...blocks];
}

function renderProvider(provider: ProviderModel): string {
  const body = providerBody(provider.arguments, `var.${provider.name}`, 2);
  return `provider ${quoteHclString(provider.name)} {${body.length ? `\n${body.join("\n")}\n` : ""}}\n`;
}

function renderModule(model: RootModuleModel): string {
  const head: [string, string][] = [["source", quoteHclString(model.moduleSource)]];
  if (model.moduleVersion) head.push(["version", quoteHclString(model.moduleVersion)]);
  head.push(["services", "var.services"]);
  if (model.catalogServices) head.push(["catalog_services", "var.catalog_services"]);
  if (model.consulKv) head.push(["consul_kv", "var.consul_kv"]);
  for (const input of model.otherInputs ?? []) head.push([input.name, `var.${input.name}`]);
  const variables = sortedKeys(model.variables).map((name): [string, string] => [name, `var.${name}`]);
  const body = alignAttributes(head, 2).join("\n") +
    (variables.length ? `\n\n${alignAttributes(variables, 2).join("\n")}` : "");
  const comment = model.description
    ? model.description.split(/\r?\n/).map((line) => `# ${line}`.trimEnd()).join("\n") + "\n"
    : "";
  return `${comment}module ${quoteHclString(model.taskName)} {\n${body}\n}\n`;
}

export function renderMainTf(model: RootModuleModel): string {
  return [
    renderPreamble(model.taskName, model.description) + renderTerraformBlock(model),
    ...model.providers.map(renderProvider),
    renderModule(model),
  ].join("\n");
}
