/** @module Builds the API app over a task manager for in-process `app.request()` tests. */
import type { Logger, TaskManager } from "../../../../core/plugin-api/mod.ts";
import { createApiApp } from "../../../../plugins/http-api/src/create-api-app.ts";
import { normalizeApiTask } from "../../../../plugins/http-api/src/normalize-api-task.ts";
import { validateTaskName } from "../../../../core/config/validate-task-name.ts";
import type { CtsConfig } from "../../../../core/plugin-api/mod.ts";

/** The only global fields a task inherits from. */
const globals = {
  working_dir: "sync-tasks",
  buffer_period: { enabled: true, min: 5000, max: 20000 },
  driver: { name: "terraform", options: {} },
} as unknown as CtsConfig;

export interface LogRecord {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(records: LogRecord[] = [], name = "api"): Logger {
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    records.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return {
    name,
    trace: at("TRACE"), debug: at("DEBUG"), info: at("INFO"), warn: at("WARN"), error: at("ERROR"),
    child: (child) => recordingLogger(records, `${name}.${child}`),
  };
}

export function testApp(tasks: TaskManager, logs: LogRecord[] = [], bodyLimitBytes?: number) {
  return createApiApp({
    tasks,
    normalizeTask: (apiTask) => normalizeApiTask(apiTask, globals),
    validateTaskName: (name) => {
      const problem = validateTaskName(name);
      if (problem) throw new Error(problem);
    },
    logger: recordingLogger(logs),
    highAvailability: false,
    ...(bodyLimitBytes !== undefined ? { bodyLimitBytes } : {}),
  });
}
