/** @module The `nodes` block: its JSON Schema (the kernel checks it) and the options a source reads. */
import type { JsonSchema } from "@cts-runtime/plugin-api";

/** The block as the kernel hands it over: checked, defaults applied. */
export interface NodesOptions {
  /** Consul datacenter; "" is the agent's. */
  readonly datacenter: string;
  /** A Consul filter expression over the catalog's node fields (`Meta.rack == "r1"`). */
  readonly filter: string;
  /** Node metadata every node must carry, `key = value`. */
  readonly node_meta: Readonly<Record<string, string>>;
  /** Conditions only: false watches without filling the `nodes` variable. */
  readonly use_as_module_input: boolean;
}

const fields: Readonly<Record<string, JsonSchema>> = {
  datacenter: { type: "string", default: "", description: "Consul datacenter to watch; the agent's when empty." },
  filter: {
    type: "string", default: "",
    description: "Consul filter expression over ID, Node, Address, Datacenter, TaggedAddresses and Meta.",
  },
  node_meta: {
    type: "object", additionalProperties: { type: "string" }, default: {},
    description: "Node metadata every watched node must carry.",
  },
};

export const nodesConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...fields,
    use_as_module_input: { type: "boolean", default: true, description: "Fill the task's `nodes` variable." },
  },
};

export const nodesModuleInputSchema: JsonSchema = { type: "object", additionalProperties: false, properties: fields };

/** Reads the checked block; a module input always fills its variable. */
export function readNodesOptions(block: Readonly<Record<string, unknown>>): NodesOptions {
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  const meta = typeof block.node_meta === "object" && block.node_meta !== null ? block.node_meta : {};
  return {
    datacenter: text(block.datacenter),
    filter: text(block.filter),
    node_meta: meta as Readonly<Record<string, string>>,
    use_as_module_input: block.use_as_module_input !== false,
  };
}
