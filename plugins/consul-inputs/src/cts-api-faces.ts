/**
 * @module How the services, catalog-services and consul-kv blocks look in CTS's HTTP API: CTS's
 * request schemas for `POST /v1/tasks` (quirks included: null `cts_user_defined_meta` values) and
 * CTS's `GET /v1/tasks/{name}` representation (api/representation.go): every field present, an
 * unset one as its empty value, keys in CTS's order. `represent` reads the block as the kernel
 * decoded it (defaults applied), like every other hook; only the fields without a default
 * (`names`, `regexp`) need CTS's empty value here.
 */
import type { BlockApiFace, JsonSchema } from "../../../core/plugin-api/mod.ts";
import type {
  CatalogServicesConditionBlock, ConsulKvConditionBlock, ConsulKvSelector, ServicesConditionBlock, ServicesSelector,
} from "./input-options.ts";

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

function withoutNullMeta(body: Block): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...body };
  const meta = fields.cts_user_defined_meta;
  if (typeof meta === "object" && meta !== null) {
    fields.cts_user_defined_meta = Object.fromEntries(Object.entries(meta).filter(([, value]) => value !== null));
  }
  return fields;
}

function servicesSelector(block: ServicesSelector): Record<string, unknown> {
  return {
    regexp: block.regexp ?? "",
    names: [...block.names ?? []],
    filter: block.filter,
    datacenter: block.datacenter,
    namespace: block.namespace,
    cts_user_defined_meta: { ...block.cts_user_defined_meta },
  };
}

function consulKvSelector(block: ConsulKvSelector): Record<string, unknown> {
  return { path: block.path, recurse: block.recurse, datacenter: block.datacenter, namespace: block.namespace };
}

export const servicesConditionApi: BlockApiFace<ServicesConditionBlock> = Object.freeze({
  requestSchema: {
    type: "object", additionalProperties: false, properties: { ...servicesRequestFields, ...asModuleInput },
  },
  fromRequest(body: Block) {
    const fields = withoutNullMeta(body);
    // CTS quirk kept for compatibility: a non-empty `names` wins and `regexp` is dropped.
    if (Array.isArray(fields.names) && fields.names.length > 0) delete fields.regexp;
    return fields;
  },
  represent: (block: ServicesConditionBlock) => ({ ...servicesSelector(block), use_as_module_input: block.use_as_module_input }),
});

export const servicesModuleInputApi: BlockApiFace<ServicesSelector> = Object.freeze({
  requestSchema: { type: "object", additionalProperties: false, properties: servicesRequestFields },
  fromRequest: withoutNullMeta,
  represent: servicesSelector,
});

export const catalogServicesConditionApi: BlockApiFace<CatalogServicesConditionBlock> = Object.freeze({
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
  represent: (block: CatalogServicesConditionBlock) => ({
    regexp: block.regexp,
    datacenter: block.datacenter,
    namespace: block.namespace,
    node_meta: { ...block.node_meta },
    use_as_module_input: block.use_as_module_input,
  }),
});

export const consulKvConditionApi: BlockApiFace<ConsulKvConditionBlock> = Object.freeze({
  requestSchema: {
    type: "object",
    additionalProperties: false,
    required: ["path"],
    properties: { ...consulKvRequestFields, ...asModuleInput },
  },
  represent: (block: ConsulKvConditionBlock) => ({ ...consulKvSelector(block), use_as_module_input: block.use_as_module_input }),
});

export const consulKvModuleInputApi: BlockApiFace<ConsulKvSelector> = Object.freeze({
  requestSchema: { type: "object", additionalProperties: false, required: ["path"], properties: consulKvRequestFields },
  represent: consulKvSelector,
});
