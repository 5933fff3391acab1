/**
 * @module The templates of a task's blocks, for its driver (`DriverContext.templates`): each block's
 * owner writes its own (`ConditionFactory.template`), so a driver writes CTS's terraform.tfvars.tmpl
 * without reading any block's fields, and a third-party condition brings its own text.
 */
import type {
  ConditionFactory, InputBlockFactory, InputVariable, ModuleInputFactory, Registry, TaskConfig, TaskInputTemplate,
} from "../../../core/plugin-api/mod.ts";
import { renderedVariable } from "./rendered-variable.ts";

type Block = Readonly<Record<string, unknown>>;

/**
 * In block order, condition first. The variable is the one the owner says the block renders
 * (rendered-variable.ts). A block with no owner, no template, or one its owner rejects is left
 * out: starting the sources reports the rejection, as for `DriverContext.inputs`.
 */
export function taskInputTemplates(
  task: TaskConfig,
  conditions: Registry<ConditionFactory>,
  moduleInputs: Registry<ModuleInputFactory>,
): TaskInputTemplate[] {
  const templates: TaskInputTemplate[] = [];
  const add = (block: TaskInputTemplate["block"], config: Block, owner: InputBlockFactory | undefined): void => {
    if (owner?.template === undefined) return;
    let text: string;
    let variable: InputVariable | undefined;
    try {
      text = owner.template(config);
      variable = renderedVariable(owner, config, task);
    } catch {
      return;
    }
    const type = String(config.type);
    templates.push(variable === undefined ? { block, type, text } : { block, type, variable, text });
  };
  add("condition", task.condition as Block, conditions.get(task.condition.type));
  for (const input of task.module_input) add("module_input", input as unknown as Block, moduleInputs.get(input.type));
  return templates;
}
