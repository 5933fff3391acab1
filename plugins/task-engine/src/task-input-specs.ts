/**
 * @module What a task's blocks render, for its driver (`DriverContext.inputs`): each factory's source
 * says which variable it publishes, so a driver declares exactly those variables, also for a
 * third-party condition, instead of guessing from type names.
 */
import type {
  ConditionFactory, InputSource, ModuleInputFactory, Registry, TaskConfig, TaskInputSpec,
} from "../../../core/plugin-api/mod.ts";

/**
 * Creating a source only reads its block (watching starts in `start`), so the engine asks each
 * factory for a throwaway source. Unknown types and blocks a factory rejects are left out: starting
 * the sources reports them, as before.
 */
export function taskInputSpecs(
  task: TaskConfig,
  conditions: Registry<ConditionFactory>,
  moduleInputs: Registry<ModuleInputFactory>,
): TaskInputSpec[] {
  const specs: TaskInputSpec[] = [];
  const add = (
    block: TaskInputSpec["block"], type: string, owner: ConditionFactory | ModuleInputFactory | undefined,
    create: (() => InputSource) | undefined,
  ): void => {
    let variable: TaskInputSpec["variable"] | undefined;
    try {
      variable = create?.().variable;
    } catch {
      return;
    }
    if (variable === undefined) return;
    const declaration = owner?.variableDeclaration;
    specs.push({ variable, block, type, triggers: block === "condition", ...(declaration ? { declaration } : {}) });
  };
  const condition = conditions.get(task.condition.type);
  add("condition", task.condition.type, condition, condition && (() => condition.create(task.condition as Record<string, unknown>, task.name, task)));
  for (const input of task.module_input) {
    const factory = moduleInputs.get(input.type);
    add("module_input", input.type, factory, factory && (() => factory.create(input as unknown as Record<string, unknown>, task.name, task)));
  }
  return specs;
}
