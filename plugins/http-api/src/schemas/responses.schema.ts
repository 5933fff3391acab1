/** @module JSON Schemas of the HTTP API response bodies, used for the OpenAPI document and response tests. */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import type { ApiBody } from "./api-body.ts";
import type { taskSchema } from "./task.schema.ts";

const requestId = { type: "string", format: "uuid" } as const satisfies JsonSchema;

export const errorSchema = {
  type: "object",
  additionalProperties: false,
  required: ["error"],
  properties: {
    error: {
      type: "object",
      additionalProperties: false,
      required: ["message"],
      properties: { message: { type: "string" } },
    },
    request_id: requestId,
  },
} as const satisfies JsonSchema;

/** A task in a response: `task` is the task schema with the registered types. */
export const taskResponseSchemaWith = <T extends JsonSchema>(task: T) => ({
  type: "object",
  additionalProperties: false,
  required: ["request_id", "task"],
  properties: {
    request_id: requestId,
    task,
    run: {
      type: "object",
      additionalProperties: false,
      required: ["plan", "changes_present"],
      properties: {
        plan: { type: "string" },
        changes_present: { type: "boolean" },
        tfc_run_url: { type: "string" },
      },
    },
    outputs: {
      type: "object",
      description: "Beyond CTS (GET only): the module's outputs after the task's last successful apply, when known.",
      additionalProperties: { $ref: "#/components/schemas/RunOutput" },
    },
    outputs_run_id: { type: "string", description: "Beyond CTS: the run whose outputs these are (GET /v1/tasks/{name}/runs/{id})." },
  },
}) as const satisfies JsonSchema;

export const tasksResponseSchemaWith = <T extends JsonSchema>(task: T) => ({
  type: "object",
  additionalProperties: false,
  required: ["request_id", "tasks"],
  properties: { request_id: requestId, tasks: { type: "array", items: task } },
}) as const satisfies JsonSchema;

export const deleteResponseSchema = {
  type: "object",
  additionalProperties: false,
  required: ["request_id"],
  properties: { request_id: requestId },
} as const satisfies JsonSchema;

export const healthResponseSchema = { type: "object", additionalProperties: false } as const satisfies JsonSchema;

/** Beyond CTS: stored records that cannot be decoded (`/v1/status`, `/v1/status/cluster`), only when there are some. */
export const damagedRecordsSchema = {
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    required: ["key", "kind", "error", "action", "since"],
    properties: {
      key: { type: "string" },
      kind: { enum: ["task", "events", "run", "run-detail", "leader", "member", "owner"] },
      task: { type: "string" },
      error: { type: "string" },
      action: { type: "string" },
      since: { type: "string", format: "date-time" },
    },
  },
} as const satisfies JsonSchema;

const countOf = { type: "integer", minimum: 0 } as const;

/** `GET /v1/status`: CTS's task summary, and (beyond CTS, added keys) Consul's reachability and damaged records. */
export const overallStatusResponseSchema = {
  type: "object",
  additionalProperties: false,
  required: ["task_summary"],
  properties: {
    task_summary: {
      type: "object",
      additionalProperties: false,
      required: ["status", "enabled"],
      properties: {
        status: {
          type: "object",
          additionalProperties: false,
          required: ["successful", "errored", "critical", "unknown"],
          properties: { successful: countOf, errored: countOf, critical: countOf, unknown: countOf },
        },
        enabled: {
          type: "object", additionalProperties: false, required: ["true", "false"], properties: { true: countOf, false: countOf },
        },
      },
    },
    consul: {
      type: "object",
      additionalProperties: false,
      required: ["healthy", "since", "failures"],
      description: "Beyond CTS: whether Consul answers, since when, and the failures in a row",
      properties: {
        healthy: { type: "boolean" },
        since: { type: "string", format: "date-time" },
        failures: { type: "integer", minimum: 0 },
        last_error: { type: "string" },
      },
    },
    damaged_records: damagedRecordsSchema,
  },
} as const satisfies JsonSchema;

export const clusterStatusResponseSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cluster_name", "members", "request_id"],
  properties: {
    cluster_name: { type: "string" },
    members: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "service_name", "healthy", "leader"],
        properties: {
          id: { type: "string" },
          service_name: { type: "string" },
          healthy: { type: "boolean" },
          leader: { type: "boolean" },
          address: { type: "string" },
        },
      },
    },
    mode: { const: "shared" },
    task_owners: { type: "object", additionalProperties: { type: "string" } },
    consul: {
      type: "object",
      additionalProperties: false,
      required: ["reachable"],
      properties: { reachable: { type: "boolean" }, since: { type: "string", format: "date-time" }, error: { type: "string" } },
    },
    members_as_of: { type: ["string", "null"], format: "date-time" },
    leader: {
      type: "object",
      additionalProperties: false,
      required: ["id", "stale"],
      properties: { id: { type: "string" }, address: { type: "string" }, stale: { type: "boolean" }, stale_seconds: { type: "integer" } },
    },
    damaged_records: damagedRecordsSchema,
    request_id: requestId,
  },
} as const satisfies JsonSchema;

export type ErrorBody = ApiBody<typeof errorSchema>;
/** A task answer; its `task` is `ApiTask` where a route builds it (task-representation.ts). */
export type TaskResponse = ApiBody<ReturnType<typeof taskResponseSchemaWith<typeof taskSchema>>>;
export type TasksResponse = ApiBody<ReturnType<typeof tasksResponseSchemaWith<typeof taskSchema>>>;
export type DeleteResponse = ApiBody<typeof deleteResponseSchema>;
export type HealthResponse = ApiBody<typeof healthResponseSchema>;
export type DamagedRecordsBody = ApiBody<typeof damagedRecordsSchema>;
export type ClusterStatusResponse = ApiBody<typeof clusterStatusResponseSchema>;
export type OverallStatusResponse = ApiBody<typeof overallStatusResponseSchema>;
