/**
 * @module The task fields core does not read (core/config/task-fields.ts), judged by the registered
 * drivers: a field a driver declares (DriverFactory.taskBlocks) is checked by the task's driver and
 * refused under any other; a field no driver declares is an unknown field, worded as core's schema
 * words them. Then the task's driver completes its fields (`completeTaskBlocks`): the task as the
 * driver, the engine and the API read it, and the deprecations to log.
 */
import type { BlockProblem, DriverFactory, JsonSchema, Registry, TaskConfig } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { childPath } from "../config/field-path.ts";
import { driverTaskFields, unknownTaskField } from "../config/task-fields.ts";
import { weakDecode } from "../config/weak-decode.ts";
import type { BlockOptions } from "./block-options.ts";

type Fields = Readonly<Record<string, unknown>>;
type FileOf = (path: string) => string | undefined;

/** One schema for all the task fields a driver declares, so one ajv pass checks them (cached per driver). */
const combined = new WeakMap<DriverFactory, JsonSchema>();

function schemaOf(driver: DriverFactory): JsonSchema {
  let schema = combined.get(driver);
  if (schema === undefined) {
    schema = { type: "object", properties: { ...driver.taskBlocks } };
    combined.set(driver, schema);
  }
  return schema;
}

/** The driver declaring each task field (the first registered, if several do). */
function declarations(drivers: Registry<DriverFactory>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const name of drivers.names()) {
    for (const field of Object.keys(drivers.get(name)!.taskBlocks ?? {})) if (!owners.has(field)) owners.set(field, name);
  }
  return owners;
}

/** CTS leaves unset fields at their zero value: absent, "", or a block of unset fields. */
function isUnset(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (typeof value === "object" && !Array.isArray(value)) return Object.values(value).every(isUnset);
  return Array.isArray(value) && value.length === 1 && isUnset(value[0]);
}

/**
 * The task's fields its driver declares, shaped and weakly decoded by their schemas: a block written
 * in HCL block syntax (`[{...}]`) is its one body; a second body of a block is a problem.
 */
function decodedFields(task: TaskConfig, driver: DriverFactory): { fields: Fields; problems: BlockProblem[] } {
  const written = task as unknown as Fields;
  const declared = driver.taskBlocks ?? {};
  const fields: Record<string, unknown> = {};
  const problems: BlockProblem[] = [];
  for (const [field, schema] of Object.entries(declared)) {
    let value = written[field];
    if (value === undefined) continue;
    const isBlock = (schema as Fields).properties !== undefined;
    if (isBlock && Array.isArray(value) && value.every((item) => typeof item === "object" && item !== null && !Array.isArray(item))) {
      if (value.length > 1) problems.push({ path: field, message: `only one "${field}" block can be configured` });
      value = value[0] ?? {};
    }
    fields[field] = weakDecode(value, schema as Record<string, unknown>, { documents: new Map(), unwrapLists: false });
  }
  return { fields, problems };
}

/**
 * The task's fields that neither core reads, nor any registered driver declares, nor a plugin owns
 * (`pluginFields`: plugin-task-blocks.ts), as unknown fields.
 */
export function unknownTaskFieldIssues(
  task: TaskConfig, path: string, fileOf: FileOf, drivers: Registry<DriverFactory>, pluginFields: ReadonlySet<string> = new Set(),
): ConfigIssue[] {
  const owners = declarations(drivers);
  const known = [...owners.keys(), ...pluginFields];
  return driverTaskFields(task as unknown as Fields).filter((field) => !owners.has(field) && !pluginFields.has(field))
    .map((field) => unknownTaskField(field, fileOf(childPath(path, field)) ?? fileOf(path) ?? "", path, known));
}

/**
 * Problems of the task's driver-owned and unknown fields; `path` is the task's (`task[2]`, `task`).
 * Fields plugins own (`pluginFields`) are checked by their owners (plugin-task-blocks.ts).
 */
export function driverTaskFieldIssues(
  task: TaskConfig, path: string, fileOf: FileOf, drivers: Registry<DriverFactory>, blocks: BlockOptions,
  pluginFields: ReadonlySet<string> = new Set(),
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const written = task as unknown as Fields;
  const owners = declarations(drivers);
  const own = drivers.get(task.driver);
  const fileAt = (at: string): string => fileOf(at) ?? fileOf(path) ?? "";
  const known = [...owners.keys(), ...pluginFields];
  for (const field of driverTaskFields(written)) {
    if (pluginFields.has(field)) continue;
    const at = childPath(path, field);
    const owner = owners.get(field);
    if (owner === undefined) issues.push(unknownTaskField(field, fileAt(at), path, known));
    else if (own?.taskBlocks?.[field] === undefined && !isUnset(written[field])) {
      issues.push({ file: fileAt(at), path: at, message: `is only supported by the "${owner}" driver` });
    }
  }
  const toIssue = (problem: BlockProblem): ConfigIssue => {
    const at = problem.path === "" ? path : `${path}.${problem.path}`;
    return { file: fileAt(at), path: at, message: problem.message };
  };
  if (issues.length > 0 || own === undefined) return issues;
  // A driver with no task blocks may still have rules for the task (its name as a workspace name).
  if (own.taskBlocks === undefined) return (own.validateTask?.(task) ?? []).map(toIssue);
  const { fields, problems } = decodedFields(task, own);
  issues.push(...problems.map(toIssue));
  if (issues.length > 0) return issues;
  let completed = task;
  if (Object.keys(fields).length > 0) {
    const file = fileAt(childPath(path, Object.keys(fields)[0]!));
    const result = blocks.check({ name: task.driver, optionsSchema: schemaOf(own) }, fields, file, path);
    if (!result.ok) return [...result.issues];
    completed = withFields(task, own, own.completeTaskBlocks?.(result.value).fields ?? result.value);
  }
  // The driver's rules read its fields as the task will hold them (deprecated fields folded in).
  return (own.validateTask?.(completed) ?? []).map(toIssue);
}

/** `task` with the fields `driver` declares replaced by `fields`. */
function withFields(task: TaskConfig, driver: DriverFactory, fields: Fields): TaskConfig {
  const out: Record<string, unknown> = { ...task };
  for (const field of Object.keys(driver.taskBlocks ?? {})) delete out[field];
  return { ...out, ...fields } as unknown as TaskConfig;
}

/**
 * The task with its driver's fields as the driver reads them, and the deprecations it reported.
 * Fields that do not pass their schemas stay as written: the check reports them.
 */
export function completeDriverTaskFields(
  task: TaskConfig, drivers: Registry<DriverFactory>, blocks: BlockOptions,
): { task: TaskConfig; deprecations: readonly BlockProblem[] } {
  const own = drivers.get(task.driver);
  if (own?.taskBlocks === undefined) return { task, deprecations: [] };
  const { fields, problems } = decodedFields(task, own);
  if (problems.length > 0) return { task, deprecations: [] };
  const result = blocks.check({ name: task.driver, optionsSchema: schemaOf(own) }, fields, "", "");
  if (!result.ok) return { task, deprecations: [] };
  const completion = own.completeTaskBlocks?.(result.value) ?? { fields: result.value };
  return { task: withFields(task, own, completion.fields), deprecations: completion.deprecations ?? [] };
}

/** Each deprecated driver-owned task field of the configured tasks (logged at WARN). */
export function driverTaskFieldWarnings(
  tasks: readonly TaskConfig[], fileOf: FileOf, drivers: Registry<DriverFactory>, blocks: BlockOptions,
): ConfigIssue[] {
  return tasks.flatMap((task, index) => {
    const taskPath = `task[${index}]`;
    return completeDriverTaskFields(task, drivers, blocks).deprecations.map((problem) => {
      const at = problem.path === "" ? taskPath : `${taskPath}.${problem.path}`;
      return { file: fileOf(at) ?? fileOf(taskPath) ?? "", path: at, message: problem.message };
    });
  });
}
