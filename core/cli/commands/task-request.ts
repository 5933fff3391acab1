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

const DEPRECATED_TASK_FIELDS: Readonly<Record<string, string>> = {
  source: "use 'module' instead",
  source_input: "use 'module_input' blocks instead",
  services: "use a 'condition \"services\"' or 'module_input \"services\"' block instead",
};

/** Deprecated fields in the file as written (the loader would quietly convert them). */
function deprecatedFields(parsed: Json): string[] {
  const found: string[] = [];
  const tasks = ([] as unknown[]).concat(parsed.task ?? []) as Json[];
  for (const task of tasks) {
    for (const [field, hint] of Object.entries(DEPRECATED_TASK_FIELDS)) {
      if (task[field] !== undefined) found.push(`'${field}' is deprecated: ${hint}`);
    }
    if (JSON.stringify(task.condition ?? {}).includes('"source_includes_var"')) {
      found.push("'source_includes_var' is deprecated: use 'use_as_module_input' instead");
    }
  }
  return found;
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
  if (task.buffer_period_configured && !unbuffered) {
    out.buffer_period = {
      enabled: task.buffer_period.enabled,
      min: formatGoDuration(task.buffer_period.min),
      max: formatGoDuration(task.buffer_period.max),
    };
  }
  return out;
}

/** The task file holds no task or more than one (CTS reports it without "unable to read task file"). */
export class TaskCountError extends CtsError {
  override readonly name = "TaskCountError";
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
    const deprecated = deprecatedFields(parsed.value);
    if (deprecated.length > 0) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot create a task from "${file}": ${deprecated.join("; ")}`);
    }
  }
  const loaded = await loadConfig({ paths: [{ kind: "file", path: file }], env, cwd, hostName: "cli" });
  const tasks = loaded.config.tasks;
  // CTS's own sentences (command/task_create.go), which scripts match.
  if (tasks.length > 1) {
    throw new TaskCountError(`task file '${file}' cannot contain more than 1 task, contains ${tasks.length} tasks`);
  }
  if (tasks.length === 0) {
    throw new TaskCountError(`task file '${file}' does not contain a task, must contain at least one task`);
  }
  const completed = await ownerCompletedTask(loaded.config, 0, loaded.fileOf);
  return toRequestTask(completed.task, completed.unbuffered);
}
