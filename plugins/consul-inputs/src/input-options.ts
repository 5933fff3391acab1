/**
 * @module Option schemas of the services, catalog-services and consul-kv blocks, and their types.
 *
 * The schemas are the blocks' one description: the kernel checks each block against its owner's
 * schema (renamed fields moved, defaults applied, frozen) and every hook reads the result under the
 * schema's field names, typed by `OptionsOf`; what a schema cannot say is each factory's `validate`
 * (selector-rules.ts), which the kernel runs before any other hook sees the block.
 */
import type { JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";

const stringMap = { type: "object", additionalProperties: { type: "string" } } as const;
/**
 * The block label (`type`) is not a field: the kernel keeps it out of the check, so an unknown field's
 * message lists only what users write. `source_includes_var` is CTS's deprecated alias of
 * `use_as_module_input`; the kernel renames it (conditionRenames) before checking.
 */
const common = {
  datacenter: { type: "string", default: "" },
  namespace: { type: "string", default: "" },
} as const;
/** The conditions' `renamedFields`: the kernel moves a deprecated `source_includes_var` before checking. */
export const conditionRenames: Readonly<Record<string, string>> = Object.freeze({ source_includes_var: "use_as_module_input" });
const asModuleInput = {
  use_as_module_input: { type: "boolean", default: true },
  source_includes_var: { type: "boolean" },
} as const;

const servicesFields = {
  ...common,
  names: { type: "array", items: { type: "string", minLength: 1 } },
  regexp: { type: "string" },
  filter: { type: "string", default: "" },
  cts_user_defined_meta: { ...stringMap, default: {} },
  // Set by core from CTS's deprecated `service` blocks, never written in a condition block.
  cts_user_defined_meta_by_service: { type: "object", additionalProperties: stringMap, readOnly: true },
} as const;

export const servicesConditionSchema = {
  type: "object", additionalProperties: false, properties: { ...servicesFields, ...asModuleInput },
} as const satisfies JsonSchema;
export const servicesModuleInputSchema = {
  type: "object", additionalProperties: false, properties: servicesFields,
} as const satisfies JsonSchema;
export const catalogServicesConditionSchema = {
  type: "object", additionalProperties: false, required: ["regexp"],
  properties: { ...common, regexp: { type: "string" }, node_meta: { ...stringMap, default: {} }, ...asModuleInput },
} as const satisfies JsonSchema;
const kvFields = {
  ...common, path: { type: "string", minLength: 1 }, recurse: { type: "boolean", default: false },
} as const;
export const consulKvConditionSchema = {
  type: "object", additionalProperties: false, required: ["path"], properties: { ...kvFields, ...asModuleInput },
} as const satisfies JsonSchema;
export const consulKvModuleInputSchema = {
  type: "object", additionalProperties: false, required: ["path"], properties: kvFields,
} as const satisfies JsonSchema;

/** Each block as the kernel hands it to its factory (checked, defaults applied), typed by its schema. */
export type ServicesConditionBlock = OptionsOf<typeof servicesConditionSchema>;
export type ServicesModuleInputBlock = OptionsOf<typeof servicesModuleInputSchema>;
export type CatalogServicesConditionBlock = OptionsOf<typeof catalogServicesConditionSchema>;
export type ConsulKvConditionBlock = OptionsOf<typeof consulKvConditionSchema>;
export type ConsulKvModuleInputBlock = OptionsOf<typeof consulKvModuleInputSchema>;

/**
 * The fields a services source watches by, a condition's and a module input's alike: exactly one of
 * `names` and `regexp` is set (the `validate` hook's rule; the kernel refuses a block that breaks it).
 */
export type ServicesSelector = ServicesModuleInputBlock;
/** The fields a consul-kv source watches by, a condition's and a module input's alike. */
export type ConsulKvSelector = ConsulKvModuleInputBlock;
