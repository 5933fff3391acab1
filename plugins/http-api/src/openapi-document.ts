/**
 * @module The OpenAPI 3.1 document of the API, assembled from the same JSON Schemas that validate
 * request bodies (OpenAPI 3.1 schema objects are JSON Schema 2020-12), so the two cannot drift.
 * Conditions and module inputs are the registered types, each as its owner describes it; the task
 * fields drivers add, as their drivers describe them.
 */
import type { ApiBlocks } from "./api-blocks.ts";
import { bufferPeriodSchema, taskSchemaWith } from "./schemas/task.schema.ts";
import { documentedBlocksSchema, driverFieldsSchema } from "./schemas/registered-task-schema.ts";
import { taskCreateRequestSchemaWith, taskUpdateRequestSchema } from "./schemas/requests.schema.ts";
import {
  clusterStatusResponseSchema, deleteResponseSchema, errorSchema, healthResponseSchema, overallStatusResponseSchema, taskResponseSchemaWith,
  tasksResponseSchemaWith,
} from "./schemas/responses.schema.ts";
import { eventsPathItem } from "./openapi-events.ts";
import {
  destroyPlanResponseSchema, driftStateSchema, inspectPlanSchema, resourceActionsSchema, resourceChangeSchema, taskFieldsUpdateSchemaWith,
  taskStatusEntrySchema, taskUpdateResponseSchemaWith,
} from "./schemas/task-changes.schema.ts";
import { inputChangeSchema, runOutputSchema, runRecordSchema, runResponseSchema, runsResponseSchema } from "./schemas/run-history.schema.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, ...json(ref("Error")) });
const nameParam = { name: "name", in: "path", required: true, schema: { type: "string" } };
const runParam = { name: "run", in: "query", required: false, schema: { type: "string", enum: ["now", "inspect"] } };
const includeParam = { name: "include", in: "query", required: false, schema: { type: "string", enum: ["events"] } };
const statusParam = {
  name: "status",
  in: "query",
  required: false,
  schema: { type: "string", enum: ["successful", "errored", "critical", "unknown"] },
};
const legacyStatus = {
  description: "Task status keyed by task name",
  ...json({ type: "object", additionalProperties: { $ref: "#/components/schemas/TaskStatusEntry" } }),
};
const destroyParam = {
  name: "destroy", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] },
  description: "Beyond CTS: destroy the task's resources first; the answer waits for the destroy, and a failed destroy keeps the task",
};
const destroyRunParam = {
  name: "run", in: "query", required: false, schema: { type: "string", enum: ["inspect"] },
  description: "With destroy=true: answer the destroy's plan and change nothing",
};

export function openApiDocument(blocks: ApiBlocks): Record<string, unknown> {
  const conditionSchema = documentedBlocksSchema(blocks, "condition");
  const moduleInputSchema = documentedBlocksSchema(blocks, "module_input");
  const taskSchema = taskSchemaWith(conditionSchema, moduleInputSchema, driverFieldsSchema(blocks));
  return {
    openapi: "3.1.0",
    info: {
      title: "cts-runtime API",
      version: "1.0.0",
      description: "The Consul-Terraform-Sync compatible HTTP API served by cts-runtime.",
    },
    paths: {
      "/v1/tasks": {
        get: { summary: "Lists tasks", responses: { 200: { description: "Tasks", ...json(ref("TasksResponse")) } } },
        post: {
          summary: "Creates a task",
          parameters: [runParam],
          requestBody: { required: true, ...json(ref("TaskCreateRequest")) },
          responses: {
            200: { description: "Inspection plan (run=inspect)", ...json(ref("TaskResponse")) },
            201: { description: "Task created", ...json(ref("TaskResponse")) },
            400: error("Invalid request, duplicate task or failed inspection"),
            500: error("Task could not be created or run"),
          },
        },
      },
      "/v1/tasks/{name}": {
        parameters: [nameParam],
        get: {
          summary: "Reads a task",
          responses: { 200: { description: "Task", ...json(ref("TaskResponse")) }, 404: error("Unknown task") },
        },
        patch: {
          summary: "Enables or disables a task (CTS), or changes any of its fields (beyond CTS)",
          description: "A task-fields change keeps the task's name, events, run history and state. run=inspect plans the " +
            "change and changes nothing; run=now applies it at once; without run, the next trigger applies it.",
          parameters: [runParam],
          requestBody: { required: true, ...json({ anyOf: [ref("TaskUpdateRequest"), ref("TaskFieldsUpdateRequest")] }) },
          responses: {
            200: {
              description: "Updated (with `inspect` for run=inspect; beyond CTS, the inspection's run record is named by " +
                "the Content-Location header, /v1/tasks/{name}/runs/{id})",
              ...json(ref("TaskUpdateResponse")),
            },
            400: error("Invalid request"),
            404: error("Unknown task"),
            500: error("Task is running or could not be updated"),
          },
        },
        delete: {
          summary: "Deletes a task once it is idle; with destroy=true, destroys its resources first (beyond CTS)",
          parameters: [destroyParam, destroyRunParam],
          responses: {
            200: { description: "The destroy's plan (destroy=true&run=inspect)", ...json(ref("DestroyPlanResponse")) },
            202: { description: "Marked for deletion (with destroy=true: destroyed, then deleted)", ...json(ref("DeleteResponse")) },
            400: error("Bad query, or the destroy could not be planned"),
            404: error("Unknown task"),
            500: error("The destroy failed: the task is kept, errored; its destroy run record lists the resources left"),
          },
        },
      },
      "/v1/tasks/{name}/runs": {
        parameters: [nameParam],
        get: {
          summary: "A task's run history, newest first (beyond CTS)",
          parameters: [
            { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
            { name: "before", in: "query", required: false, schema: { type: "string" }, description: "The previous page's `next`" },
          ],
          responses: { 200: { description: "Runs", ...json(ref("RunsResponse")) }, 400: error("Bad query"), 404: error("Unknown task") },
        },
      },
      "/v1/tasks/{name}/runs/{id}": {
        parameters: [nameParam, { name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          summary: "One run of a task (beyond CTS)",
          responses: { 200: { description: "Run", ...json(ref("RunResponse")) }, 404: error("Unknown task or run") },
        },
      },
      "/v1/status": { get: { summary: "Overall status", responses: { 200: { description: "Task summary", ...json(ref("OverallStatusResponse")) } } } },
      "/v1/status/tasks": { get: { summary: "Status of every task", parameters: [includeParam, statusParam], responses: { 200: legacyStatus, 400: error("Bad query") } } },
      "/v1/status/tasks/{name}": {
        get: {
          summary: "Status of one task",
          parameters: [nameParam, includeParam, statusParam],
          responses: { 200: legacyStatus, 400: error("Bad query"), 404: error("Unknown task") },
        },
      },
      "/v1/status/cluster": {
        get: {
          summary: "Cluster members (high availability only)",
          responses: { 200: { description: "Cluster", ...json(ref("ClusterStatusResponse")) }, 405: error("HA not configured") },
        },
      },
      "/v1/events": eventsPathItem,
      "/v1/health": {
        get: { summary: "Health", responses: { 200: { description: "Healthy", ...json(ref("HealthResponse")) }, 503: error("Unhealthy") } },
      },
    },
    components: {
      schemas: {
        Task: taskSchema,
        Condition: conditionSchema,
        ModuleInput: moduleInputSchema,
        BufferPeriod: bufferPeriodSchema,
        TaskCreateRequest: taskCreateRequestSchemaWith(taskSchema),
        TaskUpdateRequest: taskUpdateRequestSchema,
        TaskFieldsUpdateRequest: taskFieldsUpdateSchemaWith(taskSchema),
        TaskUpdateResponse: taskUpdateResponseSchemaWith(taskSchema),
        InspectPlan: inspectPlanSchema,
        DestroyPlanResponse: destroyPlanResponseSchema,
        DriftState: driftStateSchema,
        ResourceActions: resourceActionsSchema,
        ResourceChange: resourceChangeSchema,
        TaskStatusEntry: taskStatusEntrySchema,
        TaskResponse: taskResponseSchemaWith(taskSchema),
        TasksResponse: tasksResponseSchemaWith(taskSchema),
        DeleteResponse: deleteResponseSchema,
        HealthResponse: healthResponseSchema,
        ClusterStatusResponse: clusterStatusResponseSchema,
        OverallStatusResponse: overallStatusResponseSchema,
        Error: errorSchema,
        InputChange: inputChangeSchema,
        RunRecord: runRecordSchema,
        RunOutput: runOutputSchema,
        RunsResponse: runsResponseSchema,
        RunResponse: runResponseSchema,
      },
    },
  };
}
