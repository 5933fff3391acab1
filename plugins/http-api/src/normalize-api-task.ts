/**
 * @module API task → validated `TaskConfig`, through the config loader's own task builder and
 * task rules, so a task created over HTTP means exactly what the same block in a file means.
 */
import type { CtsConfig, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { CtsError, parseGoDuration } from "../../../core/plugin-api/mod.ts";
import { buildTask } from "../../../core/config/build-task.ts";
import { formatIssue, type ConfigIssue } from "../../../core/config/config-error.ts";
import { taskIssues } from "../../../core/config/task-rules.ts";
import { apiTaskToRaw } from "./api-task-to-raw.ts";

// Not from a file: issues name only the field path.
const SOURCE = "";

function durationIssues(raw: Record<string, unknown>): ConfigIssue[] {
  const buffer = (raw.buffer_period ?? {}) as Record<string, unknown>;
  return (["min", "max"] as const)
    .filter((key) => buffer[key] !== undefined && parseGoDuration(String(buffer[key])) === undefined)
    .map((key) => ({
      file: SOURCE,
      path: `task.buffer_period.${key}`,
      message: `${JSON.stringify(buffer[key])} is not a duration such as "5s" or "1m30s"`,
    }));
}

/** Throws `CTS_ERR_CONFIG_INVALID` listing every problem of the task. */
export function normalizeApiTask(apiTask: Readonly<Record<string, unknown>>, config: CtsConfig): TaskConfig {
  const raw = apiTaskToRaw(apiTask);
  const issues = durationIssues(raw);
  if (issues.length === 0) {
    const task = buildTask(raw, {
      file: SOURCE,
      path: "task",
      defaults: { working_dir: config.working_dir, buffer_period: config.buffer_period, driver: config.driver.name },
      warnings: [],
    });
    issues.push(...taskIssues(raw, task, SOURCE, "task"));
    if (issues.length === 0) return task;
  }
  throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot create task: ${issues.map(formatIssue).join("; ")}`);
}
