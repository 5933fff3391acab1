/**
 * @module A task file → the API's `{"task": ...}` body, as CTS's `task create` builds it: the file
 * goes through the normal config loader (defaults, variable_files, validation), must hold exactly
 * one task, and may not use deprecated fields.
 */
import type { TaskConfig } from "../../plugin-api/mod.ts";
import { CtsError, formatGoDuration } from "../../plugin-api/mod.ts";
import { loadConfig } from "../../config/load-config.ts";
import { parseConfigText } from "../../config/parse-config-file.ts";
import { readTextFile, resolvePath } from "../../runtime/config-files.ts";
import { ownerCompletedTask } from "../owner-completed-task.ts";

type Json = Record<string, unknown>;

// CTS's sentences (command/task_create.go handleDeprecations), which scripts match, then the fix.
const DEPRECATED_TASK_FIELDS: Readonly<Record<string, string>> = {
  source: "the 'source' field in the task block is no longer supported: use 'module' instead",
  source_input: "the 'source_input' block in the task is no longer supported: use 'module_input' blocks instead",
  services: "the 'services' field in the task block is no longer supported: use a 'condition \"services\"' " +
    "block (or 'module_input \"services\"' when the task has another condition) with 'names' instead",
};

function tasksOf(parsed: Json): Json[] {
  return ([] as unknown[]).concat(parsed.task ?? []) as Json[];
}

/** Deprecated fields in the file as written (the loader would quietly convert them). */
function deprecatedFields(parsed: Json): string[] {
  const found: string[] = [];
  for (const task of tasksOf(parsed)) {
    for (const [field, message] of Object.entries(DEPRECATED_TASK_FIELDS)) {
      if (task[field] !== undefined) found.push(message);
    }
    for (const [type, condition] of Object.entries((task.condition ?? {}) as Json)) {
      if (JSON.stringify(condition).includes('"source_includes_var"')) {
        found.push(`the 'source_includes_var' field in the task's 'condition "${type}"' block is no longer supported: ` +
          "use 'use_as_module_input' instead");
      }
    }
  }
  return found;
}

/** CTS's count rule (command/task_create.go), checked before any other rule as CTS does. */
function checkTaskCount(file: string, count: number): void {
  if (count > 1) throw new TaskFileError(`task file '${file}' cannot contain more than 1 task, contains ${count} tasks`);
  if (count === 0) throw new TaskFileError(`task file '${file}' does not contain a task, must contain at least one task`);
}

function dropEmpty(body: Json): Json {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== "type" && value !== undefined));
}

const API_TYPE = (type: string): string => type.replace(/-/g, "_");

/**
 * The request form of a task: only what the file set or the loader resolved, in API spelling. A task
 * whose condition never buffers (`unbuffered`, CTS: schedule) sends no buffer_period.
 */
export function toRequestTask(task: TaskConfig, unbuffered = false): Json {
  const out: Json = {
    name: task.name,
    description: task.description,
    enabled: task.enabled,
    module: task.module,
    version: task.version,
    providers: [...task.providers],
    variables: { ...task.variables },
    condition: { [API_TYPE(task.condition.type)]: dropEmpty(task.condition as Json) },
  };
  if (task.module_input.length > 0) {
    out.module_input = Object.fromEntries(task.module_input.map((input) => [API_TYPE(input.type), dropEmpty(input as unknown as Json)]));
  }
  if (task.drift_detection) out.drift_detection = { ...task.drift_detection };
  if (task.buffer_period_configured && !unbuffered) {
    out.buffer_period = {
      enabled: task.buffer_period.enabled,
      min: formatGoDuration(task.buffer_period.min),
      max: formatGoDuration(task.buffer_period.max),
    };
  }
  return out;
}

/**
 * The file was read but breaks one of CTS's task-file rules: no task or more than one, or a
 * deprecated field (CTS reports these without "unable to read task file").
 */
export class TaskFileError extends CtsError {
  override readonly name = "TaskFileError";
  constructor(message: string) {
    super("CTS_ERR_CONFIG_INVALID", message);
  }
}

/** Reads `file` (HCL or JSON) relative to `cwd` and returns the `task` request body. */
export async function taskRequestFromFile(
  file: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Json> {
  let text: string;
  try {
    text = await readTextFile(resolvePath(cwd, file));
  } catch (error) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot read task file "${file}": ${(error as Error).message}`);
  }
  const parsed = await parseConfigText(file, text);
  if (parsed.ok) {
    // Before the loader's validation, which would report two same-named tasks as duplicates.
    checkTaskCount(file, tasksOf(parsed.value).length);
    const deprecated = deprecatedFields(parsed.value);
    if (deprecated.length > 0) throw new TaskFileError(deprecated.join("\n"));
  }
  const loaded = await loadConfig({ paths: [{ kind: "file", path: file }], env, cwd, hostName: "cli" });
  const tasks = loaded.config.tasks;
  checkTaskCount(file, tasks.length);
  const completed = await ownerCompletedTask(loaded.config, 0, loaded.fileOf);
  return toRequestTask(completed.task, completed.unbuffered);
}
