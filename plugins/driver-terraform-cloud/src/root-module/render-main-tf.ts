/**
 * @module main.tf for an HCP Terraform run: the terraform block (version, required providers, no
 * backend), provider blocks reading `var.<provider>`, and the module call.
 */
import { alignAttributes, encodeHclValue, hclObjectKey, quoteHclString } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import type { ProviderModel, RootModuleModel } from "./root-module-model.ts";

export const REQUIRED_TERRAFORM_VERSION = ">= 0.13.0";

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function renderTerraformBlock(model: RootModuleModel): string {
  const parts = [`  required_version = ${quoteHclString(REQUIRED_TERRAFORM_VERSION)}`];
  const required = Object.keys(model.requiredProviders).sort();
  if (required.length > 0) {
    const lines = alignAttributes(required.map((name) => [hclObjectKey(name), encodeHclValue(model.requiredProviders[name], 4)]), 4);
    parts.push(`  required_providers {\n${lines.join("\n")}\n  }`);
  }
  return `terraform {\n${parts.join("\n")}\n}\n`;
}

function providerBody(args: Readonly<Record<string, unknown>>, reference: string, indent: number): string[] {
  const pad = " ".repeat(indent);
  const attributes: [string, string][] = [];
  const blocks: string[] = [];
  for (const key of Object.keys(args).sort()) {
    const value = args[key];
    if (isObject(value)) {
      const inner = providerBody(value, `${reference}.${key}`, indent + 2);
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
  const variables = Object.keys(model.variables).sort().map((name): [string, string] => [name, `var.${name}`]);
  const body = alignAttributes(head, 2).join("\n") + (variables.length ? `\n\n${alignAttributes(variables, 2).join("\n")}` : "");
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

