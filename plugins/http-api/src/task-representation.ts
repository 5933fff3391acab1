/**
 * @module A stored task as CTS's API shows it: defaults filled in, durations as Go duration
 * strings, keys in CTS's order; each condition and module input as its owner's `api.represent`
 * shows it, keyed by its underscored type name; each task-level field a driver adds, keyed by its
 * name, only when set.
 */
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { formatGoDuration } from "../../../core/plugin-api/mod.ts";
import { ApiBlocks } from "./api-blocks.ts";

export type ApiObject = Record<string, unknown>;

/** CTS's response representation of a task (keys in CTS's order). */
export function toApiTask(task: TaskConfig, blocks: ApiBlocks = ApiBlocks.none): ApiObject {
  const out: ApiObject = {};
  if (blocks.unbuffered(task.condition.type)) {
    // CTS shows a scheduled task's buffer period, always disabled.
    out.buffer_period = { enabled: false, min: "0s", max: "0s" };
  } else if (task.buffer_period_configured) {
    out.buffer_period = {
      enabled: task.buffer_period.enabled,
      min: formatGoDuration(task.buffer_period.min),
      max: formatGoDuration(task.buffer_period.max),
    };
  }
  out.condition = Object.fromEntries([blocks.represent("condition", task.condition)]);
  out.description = task.description;
  // Beyond CTS: shown only when the task has the block, so CTS's representation is unchanged otherwise.
  if (task.drift_detection) out.drift_detection = { ...task.drift_detection };
  out.enabled = task.enabled;
  out.module = task.module;
  out.module_input = Object.fromEntries(task.module_input.map((input) => blocks.represent("module_input", input)));
  out.name = task.name;
  out.providers = [...task.providers];
  out.variables = { ...task.variables };
  out.version = task.version;
  // CTS shows terraform_cloud_workspace only when a field is set (api/representation.go); so every
  // driver's field, between CTS's keys in their (alphabetical) order.
  const written = task as unknown as Readonly<ApiObject>;
  const driverFields = [...blocks.driverTaskFields().keys()].filter((field) => isSet(written[field]));
  if (driverFields.length === 0) return out;
  for (const field of driverFields) out[field] = structuredClone(written[field]);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** CTS leaves unset fields at their zero value: absent, "", or a block of unset fields. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (typeof value === "object" && !Array.isArray(value)) return Object.values(value).some(isSet);
  return true;
}
