/**
 * @module JSON Schema of CTS's task object as the HTTP API accepts and shows it (`POST /v1/tasks`
 * body `task`), task-level fields only: the `condition` and `module_input` objects are keyed by the
 * registered types, whose owners describe them, and the fields drivers add are described by their
 * drivers (registered-task-schema.ts builds them). Every object rejects unknown keys, as CTS's
 * request validator does.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import type { ApiBody } from "./api-body.ts";

const stringMap = { type: "object", additionalProperties: { type: "string" } } as const satisfies JsonSchema;
const stringList = { type: "array", items: { type: "string" } } as const satisfies JsonSchema;

/** Any condition object of exactly one type, when the registered types are not known. */
export const anyConditionSchema = { type: "object", minProperties: 1, maxProperties: 1 } as const satisfies JsonSchema;
export const anyModuleInputSchema = { type: "object" } as const satisfies JsonSchema;

export const bufferPeriodSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    min: { type: "string" },
    max: { type: "string" },
  },
} as const satisfies JsonSchema;

/** Beyond CTS: a task's drift detection (the engine's `drift_detection` option gives what is left out). */
export const driftDetectionSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    interval: { type: "string", description: "Go duration between checks, at least 1s" },
    cron: { type: "string", description: "Instead of interval: a cron expression (5 or 6 fields)" },
    auto_correct: { type: "boolean", description: "Apply at once when drift is found (default false: report only)" },
  },
} as const satisfies JsonSchema;

/** The task's own fields, before its blocks (the order is the document's). */
const coreFieldSchemas = {
  name: { type: "string", minLength: 1 },
  description: { type: "string" },
  enabled: { type: "boolean" },
  module: { type: "string", minLength: 1 },
  version: { type: "string" },
  providers: stringList,
  variables: stringMap,
  buffer_period: bufferPeriodSchema,
  drift_detection: driftDetectionSchema,
} as const satisfies Record<string, JsonSchema>;

/**
 * The task object, in requests and responses, with the given condition and module_input schemas and
 * the task-level fields drivers add (`DriverFactory.taskBlocks`, e.g. HCP Terraform's
 * `terraform_cloud_workspace`), each by its driver's schema; a driver cannot redefine a core field.
 * Its type names the static fields only: the drivers' fields are known when the daemon runs.
 */
export function taskSchemaWith<C extends JsonSchema, M extends JsonSchema>(
  condition: C, moduleInput: M, driverFields: Readonly<Record<string, JsonSchema>> = {},
) {
  const properties = { ...coreFieldSchemas, condition, module_input: moduleInput };
  const open: Record<string, JsonSchema> = properties;
  for (const [field, schema] of Object.entries(driverFields)) open[field] ??= schema;
  return { type: "object", additionalProperties: false, required: ["name", "module", "condition"], properties } as const satisfies JsonSchema;
}

/** The task object when the registered types are not known: their blocks are left to the kernel. */
export const taskSchema = taskSchemaWith(anyConditionSchema, anyModuleInputSchema);

/**
 * A task object as the API shows and accepts it: the fields its schema lists, and the task-level
 * fields drivers and plugins add (their schemas are known only when the daemon runs).
 */
export type ApiTask = ApiBody<typeof taskSchema> & { readonly [driverField: string]: unknown };
