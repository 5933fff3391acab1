/** @module JSON Schemas of the HTTP API request bodies (`POST /v1/tasks`, `PATCH /v1/tasks/{name}`). */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import type { ApiBody } from "./api-body.ts";
import { taskSchema } from "./task.schema.ts";

/** The `POST /v1/tasks` body around the given task schema. */
export function taskCreateRequestSchemaWith<T extends JsonSchema>(task: T) {
  return { type: "object", additionalProperties: false, required: ["task"], properties: { task } } as const satisfies JsonSchema;
}

/** When the registered types are not known: their blocks are left to the kernel. */
export const taskCreateRequestSchema = taskCreateRequestSchemaWith(taskSchema);

/** CTS accepts exactly one key, `enabled`. */
export const taskUpdateRequestSchema = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
} as const satisfies JsonSchema;

/** `POST /v1/tasks`: the task's static fields (the registered types' blocks and drivers' fields are checked when it runs). */
export type TaskCreateRequest = ApiBody<typeof taskCreateRequestSchema>;
export type TaskUpdateRequest = ApiBody<typeof taskUpdateRequestSchema>;
