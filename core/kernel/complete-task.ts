/**
 * @module A task as its blocks' owners read it: each condition and module_input body renamed, weakly
 * decoded and defaulted by its owner's schema (block-options.ts). Core's loader keeps bodies as
 * written, since it runs before any plugin registers; the kernel completes the configured tasks once
 * every plugin is initialised, and each API task as it is built, so every reader of a task (the
 * engine, drivers, the API's representation) sees the same fields CTS would show, defaults included;
 * a condition that never buffers disables the task's buffer period (unbuffered-condition.ts).
 * A block its owner rejects, or that no plugin owns, stays as written: the block check reports it.
 */
import type { ConfigIssue } from "../config/config-error.ts";
import { deepFreeze } from "../config/deep-freeze.ts";
import type {
  ConditionFactory, CtsConfig, DriverFactory, ModuleInputFactory, Registry, TaskBlockFactory, TaskConfig,
} from "../plugin-api/mod.ts";
import type { BlockOptions, BlockOwner } from "./block-options.ts";
import { unbufferedFields } from "./unbuffered-condition.ts";
import { completeDriverTaskFields } from "./driver-task-fields.ts";
import { completePluginTaskBlocks } from "./plugin-task-blocks.ts";

type Fields = Readonly<Record<string, unknown>>;

export interface BlockOwners {
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
  /** When given, the task's driver completes the task-level fields it declares (driver-task-fields.ts). */
  readonly drivers?: Registry<DriverFactory>;
  /** When given, plugins complete the task blocks they own (plugin-task-blocks.ts). */
  readonly taskBlocks?: Registry<TaskBlockFactory>;
}

export function completeTask(task: TaskConfig, owners: BlockOwners, blocks: BlockOptions): TaskConfig {
  const complete = <T extends { readonly type: string }>(block: T, owner: BlockOwner | undefined): T => {
    if (owner === undefined) return block;
    const result = blocks.check(owner, block as unknown as Fields, "", "", true);
    return result.ok ? result.value as unknown as T : block;
  };
  const conditionOwner = owners.conditions.get(task.condition.type);
  const withDriverFields = owners.drivers === undefined ? task : completeDriverTaskFields(task, owners.drivers, blocks).task;
  const withPluginBlocks = completePluginTaskBlocks(withDriverFields, owners.taskBlocks, blocks);
  return deepFreeze({
    ...withPluginBlocks,
    ...unbufferedFields(conditionOwner),
    condition: complete(task.condition, conditionOwner),
    module_input: task.module_input.map((input) => complete(input, owners.moduleInputs.get(input.type))),
  });
}

/** Each deprecated field an owner renames, once per block where it is written (logged at WARN). */
export function renamedFieldWarnings(
  config: CtsConfig, fileOf: (path: string) => string | undefined, owners: BlockOwners,
): ConfigIssue[] {
  const warnings: ConfigIssue[] = [];
  const note = (block: Fields, owner: BlockOwner | undefined, path: string, taskPath: string): void => {
    for (const [old, current] of Object.entries(owner?.renamedFields ?? {})) {
      if (old in block) warnings.push({ file: fileOf(path) ?? fileOf(taskPath) ?? "", path, message: `${old} is deprecated; use ${current}` });
    }
  };
  config.tasks.forEach((task, index) => {
    const at = `task[${index}]`;
    note(task.condition, owners.conditions.get(task.condition.type), `${at}.condition`, at);
    task.module_input.forEach((input, inputIndex) => {
      note(input as unknown as Fields, owners.moduleInputs.get(input.type), `${at}.module_input[${inputIndex}]`, at);
    });
  });
  return warnings;
}
