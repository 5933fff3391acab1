/**
 * @module How the services, catalog-services and consul-kv blocks look in CTS's HTTP API: CTS's
 * request schemas for `POST /v1/tasks` (quirks included: null `cts_user_defined_meta` values) and
 * CTS's `GET /v1/tasks/{name}` representation (api/representation.go): every field present, an
 * unset one as its empty value, keys in CTS's order. Unlike the other hooks, `represent` reads the
 * stored block as the contract gives it (BlockApiFace: as written or as decoded), so it names each
 * field's empty value itself.
 */
import type { BlockApiFace, JsonSchema } from "../../../core/plugin-api/mod.ts";

type Block = Readonly<Record<string, unknown>>;

const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string" } };
const stringList: JsonSchema = { type: "array", items: { type: "string" } };
const asModuleInput = { use_as_module_input: { type: "boolean" } } as const;

// CTS's request schema (api/oapigen) lets a meta value be null; such a key is then left out.
const servicesRequestFields = {
  regexp: { type: "string" },
  names: stringList,
  filter: { type: "string" },
  datacenter: { type: "string" },
  namespace: { type: "string" },
  cts_user_defined_meta: {
    type: "object",
    additionalProperties: { anyOf: [{ type: "string" }, { type: "null" }] },
  },
} as const;

const consulKvRequestFields = {
  path: { type: "string", minLength: 1 },
  recurse: { type: "boolean" },
  datacenter: { type: "string" },
  namespace: { type: "string" },
} as const;

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): string[] => (Array.isArray(value) ? [...(value as string[])] : []);
const map = (value: unknown): Record<string, string> =>
  typeof value === "object" && value !== null ? { ...(value as Record<string, string>) } : {};

/** `use_as_module_input` wins over the deprecated `source_includes_var`; both default to true. */
function useAsModuleInput(block: Block): boolean {
  const value = block.use_as_module_input ?? block.source_includes_var;
  return value === undefined ? true : value === true;
}

function withoutNullMeta(body: Block): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...body };
  const meta = fields.cts_user_defined_meta;
  if (typeof meta === "object" && meta !== null) {
    fields.cts_user_defined_meta = Object.fromEntries(Object.entries(meta).filter(([, value]) => value !== null));
  }
  return fields;
}

function servicesSelector(block: Block): Record<string, unknown> {
  return {
    regexp: text(block.regexp),
    names: list(block.names),
    filter: text(block.filter),
    datacenter: text(block.datacenter),
    namespace: text(block.namespace),
    cts_user_defined_meta: map(block.cts_user_defined_meta),
  };
}

function consulKvSelector(block: Block): Record<string, unknown> {
  return {
    path: text(block.path),
    recurse: block.recurse === true,
    datacenter: text(block.datacenter),
    namespace: text(block.namespace),
  };
}

export const servicesConditionApi: BlockApiFace = Object.freeze({
  requestSchema: {
    type: "object", additionalProperties: false, properties: { ...servicesRequestFields, ...asModuleInput },
  },
  fromRequest(body: Block) {
    const fields = withoutNullMeta(body);
    // CTS quirk kept for compatibility: a non-empty `names` wins and `regexp` is dropped.
    if (Array.isArray(fields.names) && fields.names.length > 0) delete fields.regexp;
    return fields;
  },
  represent: (block: Block) => ({ ...servicesSelector(block), use_as_module_input: useAsModuleInput(block) }),
});

export const servicesModuleInputApi: BlockApiFace = Object.freeze({
  requestSchema: { type: "object", additionalProperties: false, properties: servicesRequestFields },
  fromRequest: withoutNullMeta,
  represent: servicesSelector,
});

export const catalogServicesConditionApi: BlockApiFace = Object.freeze({
  requestSchema: {
    type: "object",
    additionalProperties: false,
    required: ["regexp"],
    properties: {
      regexp: { type: "string" },
      datacenter: { type: "string" },
      namespace: { type: "string" },
      node_meta: stringMap,
      ...asModuleInput,
    },
  },
  represent: (block: Block) => ({
    regexp: text(block.regexp),
    datacenter: text(block.datacenter),
    namespace: text(block.namespace),
    node_meta: map(block.node_meta),
    use_as_module_input: useAsModuleInput(block),
  }),
});

export const consulKvConditionApi: BlockApiFace = Object.freeze({
  requestSchema: {
    type: "object",
    additionalProperties: false,
    required: ["path"],
    properties: { ...consulKvRequestFields, ...asModuleInput },
  },
  represent: (block: Block) => ({ ...consulKvSelector(block), use_as_module_input: useAsModuleInput(block) }),
});

export const consulKvModuleInputApi: BlockApiFace = Object.freeze({
  requestSchema: { type: "object", additionalProperties: false, required: ["path"], properties: consulKvRequestFields },
  represent: consulKvSelector,
});
