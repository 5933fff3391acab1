/**
 * @module The `nodes` variable: one object per catalog node, in Consul's order (by node name), with
 * the node's id, name, address, datacenter, tagged addresses and metadata, and how a Terraform driver
 * declares it (variables.tf).
 */
import type { InputVariableDeclaration } from "@cts-runtime/plugin-api";

/** One node as a module receives it. */
export interface NodeEntry {
  readonly id: string;
  readonly node: string;
  readonly address: string;
  readonly datacenter: string;
  readonly tagged_addresses: Readonly<Record<string, string>>;
  readonly meta: Readonly<Record<string, string>>;
}

export const NODES_VARIABLE = "nodes";

export const nodesDeclaration: InputVariableDeclaration = Object.freeze({
  comment: "Nodes definition protocol v0",
  description: "Consul catalog nodes watched by the task's nodes condition or module input",
  type: `list(object({
    id               = string
    node             = string
    address          = string
    datacenter       = string
    tagged_addresses = map(string)
    meta             = map(string)
  }))`,
});

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** A string map with its keys sorted (Consul's maps come in any order; the module sees one). */
function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, item] of entries) out[key] = text(item);
  return out;
}

/** `/v1/catalog/nodes`' body → the variable; anything that is not a node list reads as no nodes. */
export function nodeEntries(body: unknown): NodeEntry[] {
  if (!Array.isArray(body)) return [];
  return body.filter((row): row is Record<string, unknown> => typeof row === "object" && row !== null).map((row) => ({
    id: text(row.ID),
    node: text(row.Node),
    address: text(row.Address),
    datacenter: text(row.Datacenter),
    tagged_addresses: stringMap(row.TaggedAddresses),
    meta: stringMap(row.Meta),
  }));
}
