/**
 * @module JSON Schema of CTS's task object as the HTTP API accepts and shows it (`POST /v1/tasks`
 * body `task`), task-level fields only: the `condition` and `module_input` objects are keyed by the
 * registered types, whose owners describe them (registered-task-schema.ts builds them). Every
 * object rejects unknown keys, as CTS's request validator does.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";

const stringMap: JsonSchema = { type: "object", additionalProperties: { type: "string" } };
const stringList: JsonSchema = { type: "array", items: { type: "string" } };

/** Any condition object of exactly one type, when the registered types are not known. */
export const anyConditionSchema: JsonSchema = { type: "object", minProperties: 1, maxProperties: 1 };
export const anyModuleInputSchema: JsonSchema = { type: "object" };

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

/** The task object, in requests and responses, with the given condition and module_input schemas. */
export function taskSchemaWith(condition: JsonSchema, moduleInput: JsonSchema): JsonSchema {
  return {
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
      condition,
      module_input: moduleInput,
      terraform_version: { type: "string" },
      terraform_cloud_workspace: terraformCloudWorkspaceSchema,
    },
  };
}

/** The task object when the registered types are not known: their blocks are left to the kernel. */
export const taskSchema: JsonSchema = taskSchemaWith(anyConditionSchema, anyModuleInputSchema);
