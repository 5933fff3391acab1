/**
 * @module A stored task as CTS's API shows it: defaults filled in, durations as Go duration
 * strings, keys in CTS's order; each condition and module input as its owner's `api.represent`
 * shows it, keyed by its underscored type name; each task-level field a driver adds, keyed by its
 * name, only when set.
 */
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { formatGoDuration } from "../../../core/plugin-api/mod.ts";
import { ApiBlocks } from "./api-blocks.ts";
import type { ApiBody } from "./schemas/api-body.ts";
import type { ApiTask, taskSchema } from "./schemas/task.schema.ts";

/** CTS's response representation of a task (keys in CTS's order). */
export function toApiTask(task: TaskConfig, blocks: ApiBlocks = ApiBlocks.none): ApiTask {
  const listed: ApiBody<typeof taskSchema> = {
    ...bufferPeriodOf(task, blocks),
    condition: Object.fromEntries([blocks.represent("condition", task.condition)]),
    description: task.description,
    // Beyond CTS: shown only when the task has the block, so CTS's representation is unchanged otherwise.
    ...(task.drift_detection ? { drift_detection: { ...task.drift_detection } } : {}),
    enabled: task.enabled,
    module: task.module,
    module_input: Object.fromEntries(task.module_input.map((input) => blocks.represent("module_input", input))),
    name: task.name,
    providers: [...task.providers],
    variables: { ...task.variables },
    version: task.version,
  };
  // CTS shows terraform_cloud_workspace only when a field is set (api/representation.go); so every
  // driver's field, between CTS's keys in their (alphabetical) order.
  const written = task as unknown as Readonly<Record<string, unknown>>;
  const driverFields = [...blocks.driverTaskFields().keys()].filter((field) => isSet(written[field]));
  if (driverFields.length === 0) return listed;
  const out: Record<string, unknown> = { ...listed };
  for (const field of driverFields) out[field] = structuredClone(written[field]);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as ApiTask;
}

/** CTS shows a scheduled task's buffer period, always disabled; else the task's, when configured. */
function bufferPeriodOf(task: TaskConfig, blocks: ApiBlocks): Pick<ApiTask, "buffer_period"> {
  if (blocks.unbuffered(task.condition.type)) return { buffer_period: { enabled: false, min: "0s", max: "0s" } };
  if (!task.buffer_period_configured) return {};
  const { enabled, min, max } = task.buffer_period;
  return { buffer_period: { enabled, min: formatGoDuration(min), max: formatGoDuration(max) } };
}
/** CTS leaves unset fields at their zero value: absent, "", or a block of unset fields. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (typeof value === "object" && !Array.isArray(value)) return Object.values(value).some(isSet);
  return true;
}
