/** @module The `nodes` block: its JSON Schema (the kernel checks it) and the options every hook reads, typed by it. */
import type { JsonSchema, OptionsOf } from "@cts-runtime/plugin-api";

const fields = {
  datacenter: { type: "string", default: "", description: "Consul datacenter to watch; the agent's when empty." },
  filter: {
    type: "string", default: "",
    description: "Consul filter expression over ID, Node, Address, Datacenter, TaggedAddresses and Meta.",
  },
  node_meta: {
    type: "object", additionalProperties: { type: "string" }, default: {},
    description: "Node metadata every watched node must carry.",
  },
} as const;

export const nodesConditionSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...fields,
    use_as_module_input: { type: "boolean", default: true, description: "Fill the task's `nodes` variable." },
  },
} as const satisfies JsonSchema;

export const nodesModuleInputSchema = { type: "object", additionalProperties: false, properties: fields } as const satisfies JsonSchema;

/**
 * The block as the kernel hands it over (checked, defaults applied), typed by its schema:
 * `datacenter` ("" is the agent's), `filter` (a Consul filter over the catalog's node fields),
 * `node_meta` (metadata every node must carry) and, for a condition, `use_as_module_input`.
 */
export type NodesOptions = OptionsOf<typeof nodesConditionSchema>;
/** A module input's block: the same fields without `use_as_module_input` (it always fills the variable). */
export type NodesModuleInputOptions = OptionsOf<typeof nodesModuleInputSchema>;
