/**
 * @module Option schemas and readers for the services, catalog-services and consul-kv blocks.
 *
 * The config loader hands factories the block after normalisation (snake_case keys, `type`
 * field, defaults mostly applied); readers still default every field so a factory also works
 * with a hand-written config (tests, the API's task create).
 */
import { CtsError, type JsonSchema } from "../../../core/plugin-api/mod.ts";

const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string" } };
/** `type` is the block label; `source_includes_var` is CTS's deprecated alias of `use_as_module_input`. */
const common: Readonly<Record<string, JsonSchema>> = {
  type: { type: "string" },
  datacenter: { type: "string", default: "" },
  namespace: { type: "string", default: "" },
};
const asModuleInput: Readonly<Record<string, JsonSchema>> = {
  use_as_module_input: { type: "boolean", default: true },
  source_includes_var: { type: "boolean" },
};

const servicesFields: Readonly<Record<string, JsonSchema>> = {
  ...common,
  names: { type: "array", items: { type: "string", minLength: 1 } },
  regexp: { type: "string" },
  filter: { type: "string", default: "" },
  cts_user_defined_meta: { ...stringMap, default: {} },
  cts_user_defined_meta_by_service: { type: "object", additionalProperties: stringMap },
};

export const servicesConditionSchema: JsonSchema = {
  type: "object", additionalProperties: false, properties: { ...servicesFields, ...asModuleInput },
};
export const servicesModuleInputSchema: JsonSchema = {
  type: "object", additionalProperties: false, properties: servicesFields,
};
export const catalogServicesConditionSchema: JsonSchema = {
  type: "object", additionalProperties: false, required: ["regexp"],
  properties: { ...common, regexp: { type: "string" }, node_meta: { ...stringMap, default: {} }, ...asModuleInput },
};
const kvFields: Readonly<Record<string, JsonSchema>> = {
  ...common, path: { type: "string", minLength: 1 }, recurse: { type: "boolean", default: false },
};
export const consulKvConditionSchema: JsonSchema = {
  type: "object", additionalProperties: false, required: ["path"], properties: { ...kvFields, ...asModuleInput },
};
export const consulKvModuleInputSchema: JsonSchema = {
  type: "object", additionalProperties: false, required: ["path"], properties: kvFields,
};

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

export function readServicesOptions(config: Config, what: string): ServicesOptions {
  const names = config.names === undefined ? [] : stringList(config.names, `${what} names`);
  const regexp = config.regexp === undefined || config.regexp === null ? undefined : string(config, "regexp", what);
  if ((names.length > 0) === (regexp !== undefined)) {
    throw invalid(what, "exactly one of regexp and names must be set");
  }
  if (names.some((name) => name === "")) throw invalid(what, "names must not contain an empty string");
  return {
    ...(regexp === undefined ? { names: [...new Set(names)] } : { regexp }),
    filter: string(config, "filter", what),
    datacenter: string(config, "datacenter", what),
    namespace: string(config, "namespace", what),
    userMeta: stringRecord(config.cts_user_defined_meta, `${what} cts_user_defined_meta`),
    ...(config.cts_user_defined_meta_by_service !== undefined && config.cts_user_defined_meta_by_service !== null
      ? { userMetaByService: metaByService(config.cts_user_defined_meta_by_service, what) }
      : {}),
    render: useAsModuleInput(config),
  };
}

export function readCatalogServicesOptions(config: Config, what: string): CatalogServicesOptions {
  if (typeof config.regexp !== "string") throw invalid(what, "regexp is required");
  return {
    regexp: config.regexp,
    datacenter: string(config, "datacenter", what),
    namespace: string(config, "namespace", what),
    nodeMeta: stringRecord(config.node_meta, `${what} node_meta`),
    render: useAsModuleInput(config),
  };
}

export function readConsulKvOptions(config: Config, what: string): ConsulKvOptions {
  const path = string(config, "path", what);
  if (path === "") throw invalid(what, "path is required");
  if (config.recurse !== undefined && typeof config.recurse !== "boolean") throw invalid(what, "recurse must be a bool");
  return {
    path,
    recurse: config.recurse === true,
    datacenter: string(config, "datacenter", what),
    namespace: string(config, "namespace", what),
    render: useAsModuleInput(config),
  };
}

/** `use_as_module_input` wins over the deprecated `source_includes_var`; both default to true. */
function useAsModuleInput(config: Config): boolean {
  const value = config.use_as_module_input ?? config.source_includes_var;
  return value === undefined ? true : value === true;
}

function string(config: Config, field: string, what: string): string {
  const value = config[field];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(what, `${field} must be a string`);
  return value;
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw invalid(what, "must be a list of strings");
  }
  return value as string[];
}

function stringRecord(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(what, "must be a map of strings");
  const result: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalid(what, `value of "${key}" must be a string`);
    result[key] = v;
  }
  return result;
}

function invalid(what: string, why: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure ${what}: ${why}`);
}

function metaByService(value: unknown, what: string): Record<string, Record<string, string>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(what, "cts_user_defined_meta_by_service must map service names to maps");
  }
  return Object.fromEntries(Object.entries(value).map(([name, meta]) =>
    [name, stringRecord(meta, `${what} cts_user_defined_meta_by_service.${name}`)]
  ));
}
