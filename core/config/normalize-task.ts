/**
 * @module One task from outside the config files: a `task create -task-file` file (HCL or JSON) or the
 * body of `POST /v1/tasks` (CTS's API spells condition types with underscores: `catalog_services`,
 * `consul_kv`, and gives module_input as an object keyed by type). Same checks as the config loader.
 */
import type { TaskConfig } from "../plugin-api/mod.ts";
import { readTextFile, resolvePath } from "../runtime/config-files.ts";
import { rootBody, taskBody } from "./block-specs.ts";
import { buildTask, type TaskDefaults } from "./build-task.ts";
import { ConfigError, type ConfigIssue } from "./config-error.ts";
import { configSchemas, issuesFromAjv } from "./config-schemas.ts";
import { deepFreeze } from "./deep-freeze.ts";
import { parseConfigText } from "./parse-config-file.ts";
import { isPlainObject, shapeBody } from "./shape-blocks.ts";
import { taskIssues } from "./task-rules.ts";
import { readVariableFiles } from "./variable-files.ts";
import { weakDecode } from "./weak-decode.ts";

export type { TaskDefaults } from "./build-task.ts";

type Json = Record<string, unknown>;

export interface NormalizeTaskOptions {
  /** Named in issues; `""` for an API body. */
  readonly file: string;
  readonly defaults: TaskDefaults;
  /** Path prefix in issues. @default "task" (matches the API body `{"task": {...}}`) */
  readonly path?: string;
  /** `api`: underscore condition names, null meta values dropped, non-empty `names` wins over `regexp`. */
  readonly from?: "config" | "api";
  /** Receives warnings (deprecated fields, ignored buffer periods). */
  readonly warnings?: ConfigIssue[];
}

/** Maps the API's spelling of condition/module_input types to the config's labels. */
const LABELS: Readonly<Record<string, string>> = { catalog_services: "catalog-services", consul_kv: "consul-kv" };
/** And back, for building API bodies. */
const API_LABELS: Readonly<Record<string, string>> = { "catalog-services": "catalog_services", "consul-kv": "consul_kv" };

/** Validates and completes one task; throws ConfigError listing every problem. The result is frozen. */
export async function normalizeTask(raw: unknown, options: NormalizeTaskOptions): Promise<TaskConfig> {
  const path = options.path ?? "task";
  const issues: ConfigIssue[] = [];
  if (!isPlainObject(raw)) {
    throw new ConfigError([{ file: options.file, path, message: "must be an object (a task block)" }]);
  }
  const prepared = options.from === "api" ? fromApi(raw) : raw;
  const shaped = shapeBody(prepared, taskBody, path, { file: options.file, issues, offsets: {} });
  const { task: validate } = await configSchemas();
  if (!validate(shaped)) issues.push(...issuesFromAjv(validate.errors, options.file, {}, path));
  if (issues.length > 0) throw new ConfigError(issues);
  const warnings = options.warnings ?? [];
  const task = buildTask(shaped, { file: options.file, path, defaults: options.defaults, warnings });
  issues.push(...taskIssues(shaped, task, options.file, path));
  if (issues.length > 0) throw new ConfigError(issues);
  return deepFreeze(task);
}

/**
 * Reads a `-task-file` (HCL or JSON) that must hold exactly one task block, and returns the block
 * shaped like a config task, with `variable_files` read into `variables` (relative to `cwd`).
 */
export async function readTaskFile(file: string, cwd: string): Promise<Json> {
  const parsed = await parseConfigText(file, await readTextFile(resolvePath(cwd, file)));
  if (!parsed.ok) throw new ConfigError([parsed.issue]);
  const issues: ConfigIssue[] = [];
  const { root, rootSchema, documents } = await configSchemas();
  // CTS decodes a task file as a config file: weakly (see weak-decode.ts).
  const shaped = weakDecode(shapeBody(parsed.value, rootBody, "", { file, issues, offsets: {} }), rootSchema, {
    documents, unwrapLists: !file.endsWith(".json"),
  }) as Json;
  if (!root(shaped)) issues.push(...issuesFromAjv(root.errors, file));
  const tasks = (shaped.task as Json[] | undefined) ?? [];
  if (issues.length === 0 && tasks.length !== 1) {
    issues.push({ file, path: "task", message: `the file must contain exactly one task block, found ${tasks.length}` });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  const task = tasks[0]!;
  const files = (task.variable_files as string[] | undefined) ?? [];
  if (files.length === 0) return task;
  try {
    const fromFiles = await readVariableFiles(files, cwd);
    return { ...task, variables: { ...fromFiles, ...(task.variables as Json | undefined) } };
  } catch (error) {
    throw new ConfigError([{ file, path: "task[0].variable_files", message: (error as Error).message }]);
  }
}

/** A shaped config task as the body CTS's API takes under `"task"` (underscored types, module_input object). */
export function taskToApiBody(task: Json): Json {
  const { condition, module_input, variable_files: _files, ...rest } = task;
  const out: Json = { ...rest };
  if (isPlainObject(condition)) {
    out.condition = Object.fromEntries(Object.entries(condition).map(([label, body]) => [API_LABELS[label] ?? label, body]));
  }
  if (Array.isArray(module_input) && module_input.length > 0) {
    out.module_input = Object.fromEntries(
      module_input.flatMap((entry) => Object.entries(entry as Json)).map(([label, body]) => [API_LABELS[label] ?? label, body]),
    );
  }
  return out;
}

function fromApi(raw: Json): Json {
  const out: Json = { ...raw };
  const relabel = (value: unknown): unknown =>
    isPlainObject(value)
      ? Object.fromEntries(Object.entries(value).map(([label, body]) => [LABELS[label] ?? label, apiBody(body)]))
      : value;
  if (raw.condition !== undefined) out.condition = relabel(raw.condition);
  if (raw.module_input !== undefined) {
    const inputs = relabel(raw.module_input);
    out.module_input = isPlainObject(inputs)
      ? Object.entries(inputs).map(([label, body]) => ({ [label]: body }))
      : inputs;
  }
  return out;
}

/** API quirks of CTS: null meta values are dropped; non-empty `names` wins over `regexp`. */
function apiBody(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const out: Json = { ...body };
  if (isPlainObject(out.cts_user_defined_meta)) {
    out.cts_user_defined_meta = Object.fromEntries(
      Object.entries(out.cts_user_defined_meta).filter(([, value]) => value !== null),
    );
  }
  if (Array.isArray(out.names) && out.names.length > 0 && out.regexp !== undefined) delete out.regexp;
  return out;
}

/** What a task inherits, taken from a loaded config (for the API and task files). */
export function taskDefaultsOf(config: {
  readonly working_dir: string; readonly buffer_period: TaskDefaults["buffer_period"]; readonly driver: { readonly name: string };
}): TaskDefaults {
  return { working_dir: config.working_dir, buffer_period: config.buffer_period, driver: config.driver.name };
}
