/** @module JSON Schemas of the HTTP API request bodies (`POST /v1/tasks`, `PATCH /v1/tasks/{name}`). */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import { taskSchema } from "./task.schema.ts";

/** The `POST /v1/tasks` body around the given task schema. */
export function taskCreateRequestSchemaWith(task: JsonSchema): JsonSchema {
  return { type: "object", additionalProperties: false, required: ["task"], properties: { task } };
}

/** When the registered types are not known: their blocks are left to the kernel. */
export const taskCreateRequestSchema: JsonSchema = taskCreateRequestSchemaWith(taskSchema);

/** CTS accepts exactly one key, `enabled`. */
export const taskUpdateRequestSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
};
