/**
 * @module Option schemas and readers for the services, catalog-services and consul-kv blocks.
 *
 * The schemas are the blocks' one description: the kernel checks each block against its owner's
 * schema and hands the factory the result, defaults applied; the readers turn it into typed options.
 */
import { CtsError, type JsonSchema, type OptionsOf } from "../../../core/plugin-api/mod.ts";
import { selectorConflict } from "./selector-rules.ts";

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
 * What the sources read (the readers below make it from a block): CTS's one-of selector resolved,
 * `cts_user_defined_meta` under the name the services map builder uses, and whether it renders.
 */
export interface ServicesOptions {
  /** Set in the names form (deduplicated); exactly one of `names`/`regexp` is set. */
  readonly names?: readonly string[];
  readonly regexp?: string;
  readonly filter: string;
  readonly datacenter: string;
  readonly namespace: string;
  readonly userMeta: Readonly<Record<string, string>>;
  /** Per service name (deprecated `service` blocks); used where `userMeta` is empty. */
  readonly userMetaByService?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Whether the data is published as the task's `services` variable. */
  readonly render: boolean;
}

export interface CatalogServicesOptions {
  readonly regexp: string;
  readonly datacenter: string;
  readonly namespace: string;
  readonly nodeMeta: Readonly<Record<string, string>>;
  readonly render: boolean;
}

export interface ConsulKvOptions {
  readonly path: string;
  readonly recurse: boolean;
  readonly datacenter: string;
  readonly namespace: string;
  readonly render: boolean;
}

type Config = Readonly<Record<string, unknown>>;

// The kernel hands factories their block checked against the schemas above, defaults applied
// (core/kernel/validated-factories.ts), so the readers only rename fields; the `?? ""` fallbacks keep
// a factory usable with a hand-written partial block (tests, the testkit's conformance suites).

export function readServicesOptions(config: Config, what: string): ServicesOptions {
  const names = (config.names as readonly string[] | undefined) ?? [];
  const regexp = config.regexp === undefined || config.regexp === null ? undefined : String(config.regexp);
  // The kernel ran the factory's `validate` already; a hand-written block (tests, a testkit) meets the same rule here.
  if (selectorConflict(config) !== undefined) throw invalid(what, "exactly one of regexp and names must be set");
  if (names.some((name) => name === "")) throw invalid(what, "names must not contain an empty string");
  const byService = config.cts_user_defined_meta_by_service as ServicesOptions["userMetaByService"] | null | undefined;
  return {
    ...(regexp === undefined ? { names: [...new Set(names)] } : { regexp }),
    filter: text(config.filter),
    datacenter: text(config.datacenter),
    namespace: text(config.namespace),
    userMeta: map(config.cts_user_defined_meta),
    ...(byService !== undefined && byService !== null ? { userMetaByService: byService } : {}),
    render: useAsModuleInput(config),
  };
}

export function readCatalogServicesOptions(config: Config, what: string): CatalogServicesOptions {
  if (typeof config.regexp !== "string") throw invalid(what, "regexp is required");
  return {
    regexp: config.regexp,
    datacenter: text(config.datacenter),
    namespace: text(config.namespace),
    nodeMeta: map(config.node_meta),
    render: useAsModuleInput(config),
  };
}

export function readConsulKvOptions(config: Config, what: string): ConsulKvOptions {
  const path = text(config.path);
  if (path === "") throw invalid(what, "path is required");
  return {
    path,
    recurse: config.recurse === true,
    datacenter: text(config.datacenter),
    namespace: text(config.namespace),
    render: useAsModuleInput(config),
  };
}

/** `use_as_module_input` wins over the deprecated `source_includes_var`; both default to true. */
export function useAsModuleInput(config: Config): boolean {
  const value = config.use_as_module_input ?? config.source_includes_var;
  return value === undefined ? true : value === true;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function map(value: unknown): Readonly<Record<string, string>> {
  return (value as Readonly<Record<string, string>> | null | undefined) ?? {};
}

function invalid(what: string, why: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure ${what}: ${why}`);
}
