/**
 * @module JSON Schema of CTS's task object as the HTTP API accepts and shows it (`POST /v1/tasks`
 * body `task`), task-level fields only: the `condition` and `module_input` objects are keyed by the
 * registered types, whose owners describe them, and the fields drivers add are described by their
 * drivers (registered-task-schema.ts builds them). Every object rejects unknown keys, as CTS's
 * request validator does.
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

/** Beyond CTS: a task's drift detection (the engine's `drift_detection` option gives what is left out). */
export const driftDetectionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    interval: { type: "string", description: "Go duration between checks, at least 1s" },
    cron: { type: "string", description: "Instead of interval: a cron expression (5 or 6 fields)" },
    auto_correct: { type: "boolean", description: "Apply at once when drift is found (default false: report only)" },
  },
};

/**
 * The task object, in requests and responses, with the given condition and module_input schemas and
 * the task-level fields drivers add (`DriverFactory.taskBlocks`, e.g. HCP Terraform's
 * `terraform_cloud_workspace`), each by its driver's schema; a driver cannot redefine a core field.
 */
export function taskSchemaWith(
  condition: JsonSchema, moduleInput: JsonSchema, driverFields: Readonly<Record<string, JsonSchema>> = {},
): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    name: { type: "string", minLength: 1 },
    description: { type: "string" },
    enabled: { type: "boolean" },
    module: { type: "string", minLength: 1 },
    version: { type: "string" },
    providers: stringList,
    variables: stringMap,
    buffer_period: bufferPeriodSchema,
    drift_detection: driftDetectionSchema,
    condition,
    module_input: moduleInput,
  };
  for (const [field, schema] of Object.entries(driverFields)) properties[field] ??= schema;
  return { type: "object", additionalProperties: false, required: ["name", "module", "condition"], properties };
}

/** The task object when the registered types are not known: their blocks are left to the kernel. */
export const taskSchema: JsonSchema = taskSchemaWith(anyConditionSchema, anyModuleInputSchema);
