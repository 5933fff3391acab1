/** @module JSON Schemas of the HTTP API request bodies (`POST /v1/tasks`, `PATCH /v1/tasks/{name}`). */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import { taskSchema } from "./task.schema.ts";

export const taskCreateRequestSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["task"],
  properties: { task: taskSchema },
};

/** CTS accepts exactly one key, `enabled`. */
export const taskUpdateRequestSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
};
