/**
 * @module Task blocks owned by plugins other than the task's driver (TaskBlockFactory, e.g. the
 * hooks plugin's `hooks`): checked in every task under any driver, against the owner's schema and
 * then its `validate`, and completed (weakly decoded, defaults filled) before anyone reads the task,
 * for config files and API tasks alike. Drivers' own task fields are driver-task-fields.ts.
 */
import type { BlockProblem, Registry, TaskBlockFactory, TaskConfig, TaskOrigin } from "../plugin-api/mod.ts";
import { CtsError } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { childPath } from "../config/field-path.ts";
import { CORE_TASK_FIELDS } from "../config/task-fields.ts";
import type { BlockOptions, CheckedBlock } from "./block-options.ts";

type Fields = Readonly<Record<string, unknown>>;

/** The registry's entry check: a plugin may not take a field core reads. */
export function checkedTaskBlock(factory: TaskBlockFactory): TaskBlockFactory {
  if (CORE_TASK_FIELDS.includes(factory.name) || factory.name === "driver") {
    throw new CtsError("CTS_ERR_PLUGIN_INVALID", `Cannot register task block "${factory.name}": the task field "${factory.name}" is core's`);
  }
  return factory;
}

/** The task fields plugins own. */
export function pluginTaskFields(taskBlocks: Registry<TaskBlockFactory> | undefined): ReadonlySet<string> {
  return new Set(taskBlocks?.names() ?? []);
}

/** The block as one body: HCL's block syntax gives `[{...}]`; a second body is a problem. */
function bodyOf(value: unknown, name: string): { body?: Fields; problem?: BlockProblem } {
  if (!Array.isArray(value)) return { body: value as Fields };
  if (value.length > 1) return { problem: { path: "", message: `only one "${name}" block can be configured` } };
  return { body: (value[0] ?? {}) as Fields };
}

function checked(owner: TaskBlockFactory, value: unknown, file: string, path: string, blocks: BlockOptions): CheckedBlock {
  const { body, problem } = bodyOf(value, owner.name);
  if (problem) return { ok: false, issues: [{ file, path, message: problem.message }] };
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, issues: [{ file, path, message: `must be a block (an object), got ${JSON.stringify(body)}` }] };
  }
  return blocks.check(owner, body, file, path, true);
}

/** Problems of the plugin-owned blocks `task` sets; `path` is the task's (`task[2]`, `task`). */
export function pluginTaskBlockIssues(
  task: TaskConfig, path: string, fileOf: (path: string) => string | undefined,
  taskBlocks: Registry<TaskBlockFactory> | undefined, blocks: BlockOptions, origin: TaskOrigin,
): ConfigIssue[] {
  const written = task as unknown as Fields;
  const issues: ConfigIssue[] = [];
  for (const name of taskBlocks?.names() ?? []) {
    if (written[name] === undefined) continue;
    const owner = taskBlocks!.get(name)!;
    const at = childPath(path, name);
    const file = fileOf(at) ?? fileOf(path) ?? "";
    const result = checked(owner, written[name], file, at, blocks);
    if (!result.ok) {
      issues.push(...result.issues);
      continue;
    }
    for (const problem of owner.validate?.(result.value, task, origin) ?? []) {
      issues.push({ file, path: problem.path === "" ? at : `${at}.${problem.path}`, message: problem.message });
    }
  }
  return issues;
}

/** `task` with each plugin-owned block as its owner reads it; a block its owner rejects stays as written (the check reports it). */
export function completePluginTaskBlocks(task: TaskConfig, taskBlocks: Registry<TaskBlockFactory> | undefined, blocks: BlockOptions): TaskConfig {
  const written = task as unknown as Fields;
  const names = (taskBlocks?.names() ?? []).filter((name) => written[name] !== undefined);
  if (names.length === 0) return task;
  const out: Record<string, unknown> = { ...written };
  for (const name of names) {
    const result = checked(taskBlocks!.get(name)!, written[name], "", "", blocks);
    if (result.ok) out[name] = result.value;
  }
  return out as unknown as TaskConfig;
}
