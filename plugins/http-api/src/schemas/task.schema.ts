/**
 * @module JSON Schema of CTS's task object as the HTTP API accepts it (`POST /v1/tasks` body `task`).
 *
 * Field names follow CTS's API (underscored condition keys). Every object rejects unknown keys,
 * as CTS's request validator does.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";

const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string" } };
const stringList: JsonSchema = { type: "array", items: { type: "string" } };

const servicesSelector = {
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

const consulKvSelector = {
  path: { type: "string", minLength: 1 },
  recurse: { type: "boolean" },
  datacenter: { type: "string" },
  namespace: { type: "string" },
} as const;

export const servicesConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: { ...servicesSelector, use_as_module_input: { type: "boolean" } },
};

export const catalogServicesConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["regexp"],
  properties: {
    regexp: { type: "string" },
    datacenter: { type: "string" },
    namespace: { type: "string" },
    node_meta: stringMap,
    use_as_module_input: { type: "boolean" },
  },
};

export const consulKvConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["path"],
  properties: { ...consulKvSelector, use_as_module_input: { type: "boolean" } },
};

export const scheduleConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cron"],
  properties: { cron: { type: "string", minLength: 1 } },
};

/** Exactly one condition type per task. */
export const conditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    services: servicesConditionSchema,
    catalog_services: catalogServicesConditionSchema,
    consul_kv: consulKvConditionSchema,
    schedule: scheduleConditionSchema,
  },
};

export const moduleInputSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    services: { type: "object", additionalProperties: false, properties: servicesSelector },
    consul_kv: { type: "object", additionalProperties: false, required: ["path"], properties: consulKvSelector },
  },
};

export const bufferPeriodSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    min: { type: "string" },
    max: { type: "string" },
  },
};

export const terraformCloudWorkspaceSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    execution_mode: { type: "string" },
    agent_pool_id: { type: "string" },
    agent_pool_name: { type: "string" },
    terraform_version: { type: "string" },
  },
};

/** The task object, in requests and responses. */
export const taskSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "module", "condition"],
  properties: {
    name: { type: "string", minLength: 1 },
    description: { type: "string" },
    enabled: { type: "boolean" },
    module: { type: "string", minLength: 1 },
    version: { type: "string" },
    providers: stringList,
    variables: stringMap,
    buffer_period: bufferPeriodSchema,
    condition: conditionSchema,
    module_input: moduleInputSchema,
    terraform_version: { type: "string" },
    terraform_cloud_workspace: terraformCloudWorkspaceSchema,
  },
};
