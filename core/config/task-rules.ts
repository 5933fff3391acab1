/**
 * @module Cross-field rules of one task that a JSON Schema cannot say: name safety, required module and
 * condition, no templates outside provider blocks, no field core computes. (Rules inside a condition
 * or module_input block are its plugin's `validate` hook.)
 */
import type { TaskConfig } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { negativeBufferFields, type RawBufferPeriod } from "./buffer-period.ts";
import { driftDetectionIssues } from "./drift-detection.ts";
import { childPath } from "./field-path.ts";
import { computedTaskFields, unknownTaskField } from "./task-fields.ts";
import { TEMPLATE_PLACES, templatePaths } from "./template-syntax.ts";
import { validateTaskName } from "./validate-task-name.ts";

type Json = Record<string, unknown>;

/** Issues of one task; `raw` is the shaped block, `task` what `buildTask` made of it. */
export function taskIssues(raw: Json, task: TaskConfig, file: string, path: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (field: string, message: string): void => {
    issues.push({ file, path: field === "" ? path : childPath(path, field), message });
  };

  const nameError = validateTaskName(raw.name);
  if (nameError !== undefined) add("name", nameError);
  if (task.module === "") add("module", "is required: the Terraform module (path or registry address) the task runs");
  if (task.condition.type === "") {
    add("condition", `is required: a task needs one condition block, e.g. condition "services" { names = ["web"] }`);
  }

  const conditionKey = Object.keys((raw.condition as Json | undefined) ?? {})[0];
  // CTS (TaskConfig.validateCondition): a non-empty deprecated `services` list and a services
  // condition would both define var.services, so neither is silently dropped.
  if (Array.isArray(raw.services) && raw.services.length > 0 && conditionKey === "services") {
    add("services", `and condition "services" both monitor the "services" variable: configure only one of them ` +
      `(move the names into the condition block, or use separate tasks)`);
  }
  // A condition's or module input's own rules (one of names/regexp, RE2, cron) and "one source per
  // input variable" (each owner says what it publishes) belong to the plugins that register them:
  // the kernel checks them with their schemas (core/kernel/task-blocks.ts).

  for (const field of negativeBufferFields(raw.buffer_period as RawBufferPeriod | undefined)) {
    add(`buffer_period.${field}`, "must not be negative");
  }
  for (const [field, message] of driftDetectionIssues(task.drift_detection)) add(`drift_detection.${field}`, message);
  for (const at of templatePaths(raw)) {
    add(at, TEMPLATE_PLACES);
  }
  // Other fields are drivers' (the kernel checks them), except those core computes on the task.
  for (const field of computedTaskFields(raw)) issues.push(unknownTaskField(field, file, path));
  const seen = new Map<string, string>();
  for (const id of task.providers) {
    const providerName = id.split(".")[0]!;
    const other = seen.get(providerName);
    if (other !== undefined) add("providers", `"${id}" and "${other}" are both "${providerName}": use one per task`);
    seen.set(providerName, id);
  }
  return issues;
}

