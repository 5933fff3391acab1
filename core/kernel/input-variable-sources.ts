/**
 * @module CTS's rule that each input variable of a task has one source: the condition or one
 * module_input. Which variable a block fills is its owner's word (`publishes` on the factory), so a
 * third-party condition publishing `consul_kv` collides with a `module_input "consul-kv"` exactly as
 * a built-in one does, and core names no block type.
 */
import type { ConditionFactory, ModuleInputFactory, Registry, TaskConfig } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";

export interface InputOwners {
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
}

/** `path` is the task's (`task[2]`, or `task` for an API body); `fileOf` names the file of a path. */
export function inputVariableIssues(
  task: TaskConfig, path: string, fileOf: (path: string) => string | undefined, owners: InputOwners,
): ConfigIssue[] {
  const sources = new Map<string, string[]>();
  const note = (variable: string | undefined, where: string): void => {
    if (variable !== undefined) sources.set(variable, [...(sources.get(variable) ?? []), where]);
  };
  const type = task.condition.type;
  // A condition that stands for CTS's deprecated task `services` field was written as no block.
  const fromServicesField = (task.services?.length ?? 0) > 0 && type === "services";
  note(owners.conditions.get(type)?.publishes, fromServicesField ? "condition" : `condition.${type}`);
  task.module_input.forEach((input, index) => {
    note(owners.moduleInputs.get(input.type)?.publishes, `module_input[${index}].${input.type}`);
  });
  const issues: ConfigIssue[] = [];
  for (const [variable, where] of sources) {
    if (where.length < 2) continue;
    const at = `${path}.${where[1]}`;
    issues.push({
      file: fileOf(at) ?? fileOf(path) ?? "",
      path: at,
      message: `"${variable}" is already provided by ${where[0]}; each input may have one source`,
    });
  }
  return issues;
}
