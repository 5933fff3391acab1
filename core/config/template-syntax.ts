/**
 * @module Detects CTS's dynamic template values (`{{ env "X" }}`, `{{ key "path" }}`,
 * `{{ with secret "path" }}`), which CTS resolves only inside terraform_provider blocks.
 */

/** Why a template outside the places CTS resolves them is refused (a driver may add fields: see DriverFactory.templateFields). */
export const TEMPLATE_PLACES = "template syntax ({{ env }}, {{ key }}, {{ with secret }}) is only allowed in terraform_provider blocks";

const TEMPLATE = /\{\{-?\s*(?:env|key|with\s+secret)\s+"[^"]*"\s*-?\}\}/;
const SECRET = /\{\{-?\s*with\s+secret\s+"[^"]*"/;

export function hasTemplate(text: string): boolean {
  return TEMPLATE.test(text);
}

export function hasSecretTemplate(text: string): boolean {
  return SECRET.test(text);
}

/** Paths (relative, CTS style) of every string under `value` that holds a template. */
export function templatePaths(value: unknown, path = ""): string[] {
  if (typeof value === "string") return hasTemplate(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => templatePaths(item, `${path}[${index}]`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => templatePaths(item, path === "" ? key : `${path}.${key}`));
  }
  return [];
}

/** Paths of every string under `value` that reads Vault with `{{ with secret }}`. */
export function secretTemplatePaths(value: unknown, path = ""): string[] {
  if (typeof value === "string") return hasSecretTemplate(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => secretTemplatePaths(item, `${path}[${index}]`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => secretTemplatePaths(item, path === "" ? key : `${path}.${key}`));
  }
  return [];
}
