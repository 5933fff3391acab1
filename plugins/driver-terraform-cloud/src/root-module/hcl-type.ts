/**
 * @module Infers a Terraform type constraint from a configured value, the way CTS types provider
 * and task variables: primitives by kind, HCL lists as tuples, HCL objects as objects (or `any`
 * when a key cannot be an attribute name, which an object type cannot express).
 */
import { alignAttributes, isHclIdentifier } from "./hcl-value.ts";

const KEYWORDS = new Set(["true", "false", "null"]);

/** A type expression for `value`, formatted for a line indented by `indent` spaces. */
export function inferHclType(value: unknown, indent = 0): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number" || typeof value === "bigint") return "number";
  if (typeof value === "boolean") return "bool";
  if (value === null || value === undefined) return "any";
  if (Array.isArray(value)) {
    const types = value.map((item) => inferHclType(item, indent + 2));
    if (types.every((type) => !type.includes("\n"))) return `tuple([${types.join(", ")}])`;
    const pad = " ".repeat(indent + 2);
    return `tuple([\n${types.map((type) => `${pad}${type},\n`).join("")}${" ".repeat(indent)}])`;
  }
  const object = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(object).sort();
  if (keys.length === 0) return "object({})";
  // An object type can only name attributes by identifier; other keys leave the type open.
  if (!keys.every((key) => isHclIdentifier(key) && !KEYWORDS.has(key))) return "any";
  const lines = alignAttributes(keys.map((key) => [key, inferHclType(object[key], indent + 2)]), indent + 2);
  return `object({\n${lines.join("\n")}\n${" ".repeat(indent)}})`;
}
