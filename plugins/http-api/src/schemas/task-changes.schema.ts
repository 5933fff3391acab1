/**
 * @module JSON Schemas of issue 29's additions to the API (beyond CTS), for the served OpenAPI
 * document: a PATCH with task fields and its answer, the destroy plan of `DELETE ?destroy=true&run=inspect`,
 * and the drift state `/v1/status/tasks` adds to the tasks drift detection watches.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import type { ApiBody } from "./api-body.ts";
import type { taskSchema } from "./task.schema.ts";

/** One resource a plan touches (drift checks, destroy plans, run records). */
export const resourceChangeSchema = {
  type: "object",
  required: ["address", "action"],
  properties: {
    address: { type: "string", description: "Terraform resource address, e.g. module.web.aws_instance.a" },
    action: { type: "string", description: "Terraform's action: create, update, replace, delete, read or forget" },
  },
} as const satisfies JsonSchema;

export const resourceActionsSchema = {
  type: "array", items: { $ref: "#/components/schemas/ResourceChange" }, description: "At most 100",
} as const satisfies JsonSchema;

export const inspectPlanSchema = {
  type: "object",
  required: ["changes_present", "plan"],
  properties: {
    changes_present: { type: "boolean" },
    plan: { type: "string", description: "The plan as Terraform prints it (HCP Terraform: a summary by resource address)" },
    url: { type: "string", description: "The HCP Terraform run of the plan" },
  },
} as const satisfies JsonSchema;

/** A PATCH with task fields: each given field replaces the task's; null puts it back to its default. */
export function taskFieldsUpdateSchemaWith(task: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(Object.entries((task.properties ?? {}) as Record<string, JsonSchema>)
    .map(([field, schema]) => [field, { anyOf: [schema, { type: "null" }] }]));
  return {
    type: "object",
    additionalProperties: false,
    minProperties: 1,
    description: "Beyond CTS: any task field (a body of only `enabled` is CTS's request). The merged task is validated " +
      "as a create; `name`, when given, must be the task's. Answers 400 and changes nothing when invalid.",
    properties,
  };
}

export function taskUpdateResponseSchemaWith<T extends JsonSchema>(task: T) {
  return {
    type: "object",
    description: "CTS's request (`enabled` only): `{}`, or `{inspect}` with run=inspect. A task-fields request adds " +
      "`request_id` and the task as changed (as it would be, with run=inspect).",
    properties: { request_id: { type: "string" }, task, inspect: inspectPlanSchema },
  } as const satisfies JsonSchema;
}

export const destroyPlanResponseSchema = {
  type: "object",
  required: ["request_id", "inspect"],
  properties: { request_id: { type: "string" }, inspect: inspectPlanSchema },
} as const satisfies JsonSchema;

export const driftStateSchema = {
  type: "object",
  required: ["status", "resources"],
  description: "Beyond CTS: present for tasks drift detection watches (drift_detection). From the newest drift check.",
  properties: {
    status: { type: "string", enum: ["unknown", "none", "drifted"] },
    resources: resourceActionsSchema,
    checked_at: { type: "string", format: "date-time" },
    run_id: { type: "string", description: "The drift-check run record (/v1/tasks/{name}/runs/{id})" },
    next_check: { type: "string", format: "date-time" },
    error: { type: "string", description: "The newest check's error, when it could not plan" },
  },
} as const satisfies JsonSchema;

export const taskStatusEntrySchema = {
  type: "object",
  required: ["task_name", "status", "enabled", "events_url", "providers", "services"],
  properties: {
    task_name: { type: "string" },
    status: { type: "string", enum: ["successful", "errored", "critical", "unknown"] },
    enabled: { type: "boolean" },
    events_url: { type: "string" },
    providers: { type: "array", items: { type: "string" } },
    services: { type: "array", items: { type: "string" } },
    events: { type: "array", items: { type: "object" } },
    drift: { $ref: "#/components/schemas/DriftState" },
    waiting: { type: "string", description: "Beyond CTS: why the running run waits (a state lock, an approval), as its driver says; absent otherwise" },
  },
} as const satisfies JsonSchema;

export type ResourceChangeBody = ApiBody<typeof resourceChangeSchema>;
export type InspectPlanBody = ApiBody<typeof inspectPlanSchema>;
export type TaskUpdateResponse = ApiBody<ReturnType<typeof taskUpdateResponseSchemaWith<typeof taskSchema>>>;
export type DestroyPlanResponse = ApiBody<typeof destroyPlanResponseSchema>;
export type DriftStateBody = ApiBody<typeof driftStateSchema>;
export type TaskStatusEntryBody = ApiBody<typeof taskStatusEntrySchema>;
