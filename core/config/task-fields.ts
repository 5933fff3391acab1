/**
 * @module Which fields of a `task` block are core's and which are left to drivers. Core reads the
 * fields its task schema lists (schemas/config/task.schema.json; a test keeps both lists equal); any
 * other field is kept on the task as written for the kernel, which knows the task-level fields the
 * registered drivers declare (DriverFactory.taskBlocks) and refuses the rest as unknown fields
 * (core/kernel/driver-task-fields.ts). The loader runs before plugins register, so it cannot tell.
 */
import type { ConfigIssue } from "./config-error.ts";
import { closestName } from "./closest-name.ts";
import { childPath } from "./field-path.ts";

/** The task fields users write that core reads: task.schema.json's `properties`. */
export const CORE_TASK_FIELDS: readonly string[] = [
  "name", "description", "enabled", "providers", "module", "source", "version", "variables",
  "variable_files", "working_dir", "services", "buffer_period", "drift_detection", "condition", "module_input", "source_input",
];

/** Fields core computes on a `TaskConfig`: written in a task block they are unknown, whatever the drivers. */
const COMPUTED_TASK_FIELDS: readonly string[] = ["buffer_period_configured", "driver"];

/** The fields of a task block (or a built task) that core does not read: drivers' fields, or unknown ones. */
export function driverTaskFields(fields: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(fields).filter((key) => !CORE_TASK_FIELDS.includes(key) && !COMPUTED_TASK_FIELDS.includes(key));
}

/** Fields of a task block no driver can declare, since core computes them (refused at load). */
export function computedTaskFields(fields: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(fields).filter((key) => COMPUTED_TASK_FIELDS.includes(key));
}

/**
 * A task field nobody reads, worded as the config schemas word unknown fields (config-schemas.ts):
 * the closest known name, else the known names. `declared` are the drivers' task-level fields.
 */
export function unknownTaskField(
  field: string, file: string, taskPath: string, declared: readonly string[] = [],
): ConfigIssue {
  const known = [...new Set([...CORE_TASK_FIELDS, ...declared])].sort();
  const close = closestName(field, known);
  const expected = close !== undefined ? `did you mean "${close}"?` : `expected one of: ${known.join(", ")}`;
  return { file, path: childPath(taskPath, field), message: `unknown field "${field}" (${expected})` };
}
