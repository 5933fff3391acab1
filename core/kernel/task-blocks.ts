/**
 * @module Every plugin-owned block of a configuration checked against its owner: is the driver,
 * each condition and module input registered, and does each body satisfy the owner's schema? For
 * config files (each problem names its file) and for one task from the API or a task file alike.
 */
import type {
  ConditionFactory, CtsConfig, DriverFactory, ModuleInputConfig, ModuleInputFactory, Registry, TaskConfig,
} from "../plugin-api/mod.ts";
import { checkRegisteredNames } from "../config/check-registered-names.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { TEMPLATE_PLACES, templatePaths } from "../config/template-syntax.ts";
import type { BlockOptions } from "./block-options.ts";

export interface BlockRegistries {
  readonly drivers: Registry<DriverFactory>;
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
}

type FileOf = (path: string) => string | undefined;

/** One task's condition and module inputs; `path` is the task's (`task[2]`, or `task` for an API body). */
export function checkTaskBlocks(
  task: TaskConfig, path: string, fileOf: FileOf, registries: BlockRegistries, blocks: BlockOptions,
): { readonly task: TaskConfig; readonly issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  let condition = task.condition;
  const conditionPath = `${path}.condition.${task.condition.type}`;
  const conditionOwner = registries.conditions.get(task.condition.type);
  if (conditionOwner !== undefined) {
    const checked = checkBlock(conditionOwner, condition as Readonly<Record<string, unknown>>, fileOf(conditionPath) ?? "", conditionPath, blocks, issues);
    if (checked !== undefined) condition = checked as TaskConfig["condition"];
  }
  const moduleInputs = task.module_input.map((input, index): ModuleInputConfig => {
    const inputPath = `${path}.module_input[${index}].${input.type}`;
    const owner = registries.moduleInputs.get(input.type);
    if (owner === undefined) return input;
    const checked = checkBlock(owner, input as unknown as Record<string, unknown>, fileOf(inputPath) ?? "", inputPath, blocks, issues);
    return (checked ?? input) as unknown as ModuleInputConfig;
  });
  issues.push(...driverTaskBlockIssues(task, path, fileOf, registries, blocks));
  return { task: { ...task, condition, module_input: moduleInputs }, issues };
}

/** The task-level blocks drivers add: checked by the task's driver, refused under any other. */
function driverTaskBlockIssues(
  task: TaskConfig, path: string, fileOf: FileOf, registries: BlockRegistries, blocks: BlockOptions,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const fields = task as unknown as Readonly<Record<string, unknown>>;
  for (const name of registries.drivers.names()) {
    const driver = registries.drivers.get(name)!;
    for (const [block, schema] of Object.entries(driver.taskBlocks ?? {})) {
      const value = fields[block];
      if (value === undefined) continue;
      const at = `${path}.${block}`;
      const file = fileOf(at) ?? fileOf(path) ?? "";
      if (name !== task.driver) issues.push({ file, path: at, message: `is only supported by the "${name}" driver` });
      else {
        const result = blocks.check({ name: block, optionsSchema: schema }, value as Readonly<Record<string, unknown>>, file, at);
        if (!result.ok) issues.push(...result.issues);
      }
    }
  }
  const own = registries.drivers.get(task.driver);
  if (issues.length === 0 && own?.validateTask !== undefined) {
    for (const problem of own.validateTask(task)) {
      const at = problem.path === "" ? path : `${path}.${problem.path}`;
      issues.push({ file: fileOf(at) ?? fileOf(path) ?? "", path: at, message: problem.message });
    }
  }
  return issues;
}

/** The owner's schema, then its `validate` rules; the checked value, or undefined after adding issues. */
function checkBlock(
  owner: ConditionFactory | ModuleInputFactory, fields: Readonly<Record<string, unknown>>, file: string, path: string,
  blocks: BlockOptions, issues: ConfigIssue[],
): Readonly<Record<string, unknown>> | undefined {
  const result = blocks.check(owner, fields, file, path);
  if (!result.ok) {
    issues.push(...result.issues);
    return undefined;
  }
  const problems = owner.validate?.(result.value) ?? [];
  for (const problem of problems) issues.push({ file, path: problem.path === "" ? path : `${path}.${problem.path}`, message: problem.message });
  return problems.length === 0 ? result.value : undefined;
}

/** The whole configuration: registered names, the driver body, every task's blocks. */
export function configBlockIssues(
  config: CtsConfig, fileOf: FileOf, registries: BlockRegistries, blocks: BlockOptions,
): ConfigIssue[] {
  const issues = checkRegisteredNames({ config, fileOf }, {
    drivers: registries.drivers.names(),
    conditions: registries.conditions.names(),
    moduleInputs: registries.moduleInputs.names(),
  });
  const driverPath = `driver.${config.driver.name}`;
  const driver = registries.drivers.get(config.driver.name);
  const driverFile = fileOf(driverPath) ?? "";
  if (driver !== undefined) {
    const result = blocks.check(driver, config.driver.options, driverFile, driverPath);
    if (!result.ok) issues.push(...result.issues);
    else {
      for (const problem of driver.validate?.(result.value, config) ?? []) {
        issues.push({ file: driverFile, path: problem.path === "" ? driverPath : `${driverPath}.${problem.path}`, message: problem.message });
      }
    }
  }
  // CTS resolves templates only in provider blocks; a driver may resolve them in fields it declares.
  const templateFields = driver?.templateFields ?? [];
  const allowed = templateFields.length === 0 ? "" : ` and in ${templateFields.map((field) => `${driverPath}.${field}`).join(", ")}`;
  for (const at of templatePaths(config.driver.options)) {
    if (templateFields.includes(at.split(/[.[]/)[0]!)) continue;
    issues.push({ file: driverFile, path: `${driverPath}.${at}`, message: `${TEMPLATE_PLACES}${allowed}` });
  }
  config.tasks.forEach((task, index) => {
    issues.push(...checkTaskBlocks(task, `task[${index}]`, fileOf, registries, blocks).issues);
  });
  return issues;
}
