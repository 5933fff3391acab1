/**
 * @module What a task's blocks render, for its driver (`DriverContext.inputs`): each block's owner
 * says which variable it publishes (rendered-variable.ts), so a driver declares exactly those
 * variables, also for a third-party condition, instead of guessing from type names.
 */
import type {
  ConditionFactory, InputVariable, ModuleInputFactory, Registry, TaskConfig, TaskInputSpec,
} from "../../../core/plugin-api/mod.ts";
import { renderedVariable } from "./rendered-variable.ts";

/**
 * Unknown types and blocks a factory rejects are left out: starting the sources reports them, as before.
 */
export function taskInputSpecs(
  task: TaskConfig,
  conditions: Registry<ConditionFactory>,
  moduleInputs: Registry<ModuleInputFactory>,
): TaskInputSpec[] {
  const specs: TaskInputSpec[] = [];
  const add = (
    block: TaskInputSpec["block"], type: string, owner: ConditionFactory | ModuleInputFactory | undefined,
    variableOf: (() => InputVariable | undefined) | undefined,
  ): void => {
    let variable: TaskInputSpec["variable"] | undefined;
    try {
      variable = variableOf?.();
    } catch {
      return;
    }
    if (variable === undefined) return;
    const declaration = owner?.variableDeclaration;
    specs.push({ variable, block, type, triggers: block === "condition", ...(declaration ? { declaration } : {}) });
  };
  const condition = conditions.get(task.condition.type);
  add("condition", task.condition.type, condition, condition && (() => renderedVariable(condition, task.condition, task)));
  for (const input of task.module_input) {
    const factory = moduleInputs.get(input.type);
    add("module_input", input.type, factory, factory && (() => renderedVariable(factory, input as unknown as Record<string, unknown>, task)));
  }
  return specs;
}
