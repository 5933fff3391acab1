/**
 * @module The kernel's `TaskBuilder` service: a task block from outside the config files (an API
 * request) → validated `TaskConfig`, through the config loader's own task builder and task rules,
 * so a task created over HTTP means exactly what the same block in a file means.
 */
import { CtsError, parseGoDuration, quoteValue, type CtsConfig, type TaskBuilder, type TaskConfig } from "../plugin-api/mod.ts";
import { buildTask } from "./build-task.ts";
import { formatIssue, type ConfigIssue } from "./config-error.ts";
import { taskIssues } from "./task-rules.ts";
import { validateTaskName } from "./validate-task-name.ts";

// Not from a file: issues name only the field path.
const SOURCE = "";

// Config files reach buildTask through the schema's go-duration format; a bare block has not.
function durationIssues(raw: Readonly<Record<string, unknown>>): ConfigIssue[] {
  const buffer = (raw.buffer_period ?? {}) as Record<string, unknown>;
  return (["min", "max"] as const)
    .filter((key) => buffer[key] !== undefined && parseGoDuration(String(buffer[key])) === undefined)
    .map((key) => ({
      file: SOURCE,
      path: `task.buffer_period.${key}`,
      message: `${quoteValue(buffer[key])} is not a duration such as "5s" or "1m30s"`,
    }));
}

/** Checks the task's plugin-owned blocks against their owners (the kernel's); the problems found. */
export type TaskBlockCheck = (task: TaskConfig, path: string) => readonly ConfigIssue[];

/**
 * The builder for tasks under `config` (its working_dir, buffer_period and driver are the defaults);
 * `checkBlocks` runs once the task's own fields pass, so owners see a well-formed block; `complete`
 * then gives the task its blocks as their owners read them (the kernel's, as for configured tasks).
 */
export function createTaskBuilder(
  config: CtsConfig, checkBlocks?: TaskBlockCheck, complete?: (task: TaskConfig) => TaskConfig,
): TaskBuilder {
  return {
    build(block) {
      const raw = block as Record<string, unknown>;
      const issues = durationIssues(raw);
      if (issues.length === 0) {
        const task = buildTask(raw, {
          file: SOURCE,
          path: "task",
          defaults: { working_dir: config.working_dir, buffer_period: config.buffer_period, driver: config.driver.name },
          warnings: [],
        });
        issues.push(...taskIssues(raw, task, SOURCE, "task"));
        if (issues.length === 0) issues.push(...(checkBlocks?.(task, "task") ?? []));
        if (issues.length === 0) return complete?.(task) ?? task;
      }
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot create task: ${issues.map(formatIssue).join("; ")}`);
    },
    nameProblem: validateTaskName,
  };
}
