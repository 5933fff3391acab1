/**
 * @module The templates of a task's blocks, for its driver (`DriverContext.templates`): each block's
 * owner writes its own (`ConditionFactory.template`), so a driver writes CTS's terraform.tfvars.tmpl
 * without reading any block's fields, and a third-party condition brings its own text.
 */
import type {
  ConditionFactory, InputSource, ModuleInputFactory, Registry, TaskConfig, TaskInputTemplate,
} from "../../../core/plugin-api/mod.ts";

type Block = Readonly<Record<string, unknown>>;
type Owner = Pick<ConditionFactory, "template" | "create">;

/**
 * In block order, condition first. The variable is the one a throwaway source says it renders
 * (creating a source only reads its block). A block with no owner, no template, or one its owner
 * rejects is left out: starting the sources reports the rejection, as for `DriverContext.inputs`.
 */
export function taskInputTemplates(
  task: TaskConfig,
  conditions: Registry<ConditionFactory>,
  moduleInputs: Registry<ModuleInputFactory>,
): TaskInputTemplate[] {
  const templates: TaskInputTemplate[] = [];
  const add = (block: TaskInputTemplate["block"], config: Block, owner: Owner | undefined): void => {
    if (owner?.template === undefined) return;
    let text: string;
    let source: InputSource;
    try {
      text = owner.template(config);
      source = owner.create(config, task.name, task);
    } catch {
      return;
    }
    const type = String(config.type);
    templates.push(source.variable === undefined ? { block, type, text } : { block, type, variable: source.variable, text });
  };
  add("condition", task.condition as Block, conditions.get(task.condition.type));
  for (const input of task.module_input) add("module_input", input as unknown as Block, moduleInputs.get(input.type));
  return templates;
}
