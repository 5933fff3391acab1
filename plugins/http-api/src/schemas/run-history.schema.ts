/**
 * @module JSON Schemas of the run history answers (`RunRecord` in the plugin contract), for the
 * served OpenAPI document and the tests that check answers against it.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import type { ApiBody } from "./api-body.ts";

const names = { type: "array", items: { type: "string" } } as const satisfies JsonSchema;
const keyed = {
  type: "object",
  required: ["added", "removed", "changed"],
  properties: { added: names, removed: names, changed: names },
} as const satisfies JsonSchema;

export const inputChangeSchema = {
  type: "object",
  description: "What changed in the task's inputs since its previous run: ids, keys and field names only, never values.",
  properties: {
    first: { type: "boolean", description: "The task's first recorded run: everything counts as added." },
    omitted: { type: "integer", description: "Entries left out because a list passed 100 entries." },
    services: {
      type: "object",
      required: ["added", "removed", "changed"],
      properties: {
        added: names,
        removed: names,
        changed: {
          type: "array",
          items: { type: "object", required: ["id", "fields"], properties: { id: { type: "string" }, fields: names } },
        },
      },
    },
    consul_kv: { ...keyed, description: "KV key paths." },
    catalog_services: { ...keyed, description: "Service names; changed means the tags changed." },
  },
} as const satisfies JsonSchema;

const runLogSchema = {
  type: "object",
  required: ["text", "bytes"],
  properties: {
    text: { type: "string", description: "The phase's output, masked, without colour codes; past the bound its middle is left out and a line says so." },
    bytes: { type: "integer", description: "UTF-8 bytes of output received (so far, while the run is in progress)." },
    omitted_bytes: { type: "integer", description: "UTF-8 bytes left out of text." },
  },
} as const satisfies JsonSchema;

const phasesSchema = <const S extends JsonSchema>(item: S) => ({
  type: "object",
  additionalProperties: false,
  properties: { init: item, plan: item, apply: item },
}) as const satisfies JsonSchema;

export const runOutputSchema = {
  type: "object",
  properties: {
    sensitive: { type: "boolean", enum: [true], description: "A sensitive output: listed without its value." },
    value: { description: "The output's value (JSON), masked." },
    value_omitted_bytes: { type: "integer", description: "Set instead of value when the value was too large to keep." },
  },
} as const satisfies JsonSchema;

export const runRecordSchema = {
  type: "object",
  required: ["id", "task", "trigger", "change", "outcome", "started_at", "instance_id"],
  properties: {
    id: { type: "string", description: "Sorts by start time: 13 digits of Unix milliseconds, '-', a random suffix." },
    task: { type: "string" },
    trigger: {
      type: "object",
      required: ["kind"],
      properties: {
        kind: { type: "string", enum: ["dependency", "schedule", "api", "startup", "leader", "retry", "drift", "secret"] },
        detail: { type: "string", description: "E.g. the Consul query that changed, or the cron expression." },
      },
    },
    change: { $ref: "#/components/schemas/InputChange" },
    outcome: {
      type: "string", enum: ["running", "applied", "planned", "failed", "skipped", "checked", "cancelled"],
      description: "planned: an inspection that finished its plan; checked: a drift check that planned; cancelled: a hook vetoed " +
        "the run before the apply (error says why)",
    },
    kind: {
      type: "string", enum: ["apply", "inspect", "drift-check", "destroy"],
      description: "Absent for a run (apply). inspect: a plan asked through the API; drift-check: a plan with the last applied " +
        "inputs; destroy: the destroy before a delete. More kinds may come.",
    },
    drift: {
      type: "object",
      required: ["detected", "resources"],
      description: "On a drift-check record that planned.",
      properties: {
        detected: { type: "boolean" },
        resources: { $ref: "#/components/schemas/ResourceActions" },
        corrected: { type: "boolean", description: "auto_correct queued an apply (a run record of its own, trigger drift)" },
      },
    },
    resources_left: { type: "array", items: { type: "string" }, description: "On a failed destroy: what the task still manages." },
    skip_reason: { type: "string", enum: ["unchanged_inputs", "input_missing", "disabled"] },
    plan: {
      type: "object",
      required: ["add", "change", "destroy"],
      properties: { add: { type: "integer" }, change: { type: "integer" }, destroy: { type: "integer" } },
    },
    error: { type: "string" },
    previous_error: { type: "string", description: "A retry's record: the error of the failed run it retries." },
    hooks: {
      type: "array",
      description: "What the run hooks did (pre_apply and post_apply commands), in order; output masked and bounded.",
      items: {
        type: "object",
        required: ["name", "outcome", "duration_ms"],
        properties: {
          name: { type: "string" },
          outcome: { type: "string", enum: ["ok", "failed", "timed_out"] },
          exit_code: { type: "integer" },
          output: { type: "string" },
          output_omitted: { type: "integer", description: "Characters left out of output (its start)." },
          error: { type: "string" },
          duration_ms: { type: "integer" },
        },
      },
    },
    hooks_failed: { type: "boolean", description: "A hook after the apply failed; the outcome stands." },
    started_at: { type: "string", format: "date-time" },
    ended_at: { type: "string", format: "date-time" },
    duration_ms: { type: "integer" },
    instance_id: { type: "string" },
    event_id: { type: "string", description: "The CTS task event of this run (/v1/status/tasks?include=events)." },
    url: { type: "string", description: "Where the driver's run can be seen (an HCP Terraform run URL)." },
    phases_ms: { ...phasesSchema({ type: "integer" }), description: "Milliseconds spent in each phase." },
    logs: { ...phasesSchema(runLogSchema), description: "Detail (a single run's read only): the output of each phase." },
    resources: {
      type: "array",
      description: "Detail: the resources the plan touched, at most 1000.",
      items: { $ref: "#/components/schemas/ResourceChange" },
    },
    resources_omitted: { type: "integer", description: "Detail: resources beyond the 1000 listed." },
    outputs: {
      type: "object",
      description: "Detail: the module's outputs after a successful apply.",
      additionalProperties: { $ref: "#/components/schemas/RunOutput" },
    },
  },
} as const satisfies JsonSchema;

export const runsResponseSchema = {
  type: "object",
  required: ["request_id", "runs"],
  properties: {
    request_id: { type: "string" },
    runs: { type: "array", description: "Records without their detail (logs, resources, outputs).", items: { $ref: "#/components/schemas/RunRecord" } },
    next: { type: "string", description: "Pass as ?before= for the next (older) page; absent on the last page." },
    total: { type: "integer", description: "How many records the task has in all (runs in progress included)." },
  },
} as const satisfies JsonSchema;

export const runResponseSchema = {
  type: "object",
  required: ["request_id", "run"],
  properties: { request_id: { type: "string" }, run: { $ref: "#/components/schemas/RunRecord" } },
} as const satisfies JsonSchema;

export type InputChangeBody = ApiBody<typeof inputChangeSchema>;
export type RunOutputBody = ApiBody<typeof runOutputSchema>;
export type RunRecordBody = ApiBody<typeof runRecordSchema>;
export type RunsResponse = ApiBody<typeof runsResponseSchema>;
export type RunResponse = ApiBody<typeof runResponseSchema>;
