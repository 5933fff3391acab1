/**
 * @module Every plugin-owned block of a configuration checked against its owner: is the driver,
 * each condition and module input registered, does each body satisfy the owner's schema and its
 * `validate` rules, and is each task-level block a driver adds used with that driver? For config
 * files (each problem names its file) and for one task from the API or a task file alike. Checking
 * changes nothing; the kernel completes tasks by their owners separately (complete-task.ts), the
 * same way for a file and the API, so a task reads the same from both.
 */
import type {
  ConditionFactory, CtsConfig, DriverFactory, ModuleInputFactory, Registry, TaskBlockFactory, TaskConfig, TaskOrigin,
} from "../plugin-api/mod.ts";
import { checkRegisteredNames } from "../config/check-registered-names.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { TEMPLATE_PLACES, templatePaths } from "../config/template-syntax.ts";
import type { BlockOptions } from "./block-options.ts";
import { inputVariableIssues } from "./input-variable-sources.ts";
import { driverTaskFieldIssues } from "./driver-task-fields.ts";
import { driverBodyIssues } from "./driver-body.ts";
import { pluginTaskBlockIssues, pluginTaskFields } from "./plugin-task-blocks.ts";

export interface BlockRegistries {
  readonly drivers: Registry<DriverFactory>;
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
  /** Task blocks plugins other than drivers own (`hooks`). @default none */
  readonly taskBlocks?: Registry<TaskBlockFactory>;
}

type FileOf = (path: string) => string | undefined;

/** One task's condition, module inputs, driver task blocks and plugin task blocks; `path` is the task's (`task[2]`, or `task` for an API body). */
export function checkTaskBlocks(
  task: TaskConfig, path: string, fileOf: FileOf, registries: BlockRegistries, blocks: BlockOptions, origin: TaskOrigin = "file",
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const conditionPath = `${path}.condition.${task.condition.type}`;
  const conditionOwner = registries.conditions.get(task.condition.type);
  if (conditionOwner !== undefined) {
    checkBlock(conditionOwner, task.condition as Readonly<Record<string, unknown>>, fileOf(conditionPath) ?? "", conditionPath, blocks, issues);
  }
  task.module_input.forEach((input, index) => {
    const inputPath = `${path}.module_input[${index}].${input.type}`;
    const owner = registries.moduleInputs.get(input.type);
    if (owner !== undefined) {
      checkBlock(owner, input as unknown as Record<string, unknown>, fileOf(inputPath) ?? "", inputPath, blocks, issues);
    }
  });
  issues.push(...inputVariableIssues(task, path, fileOf, registries));
  issues.push(...driverTaskFieldIssues(task, path, fileOf, registries.drivers, blocks, pluginTaskFields(registries.taskBlocks)));
  issues.push(...pluginTaskBlockIssues(task, path, fileOf, registries.taskBlocks, blocks, origin));
  return issues;
}

/**
 * The owner's schema, then (on the checked, defaulted block) its `validate` rules; the decoded block
 * when it passes both (decode-input-block.ts hands it to the owner), else undefined.
 */
export function checkBlock(
  owner: ConditionFactory | ModuleInputFactory, fields: Readonly<Record<string, unknown>>, file: string, path: string,
  blocks: BlockOptions, issues: ConfigIssue[],
): Readonly<Record<string, unknown>> | undefined {
  const result = blocks.check(owner, fields, file, path, true);
  if (!result.ok) {
    issues.push(...result.issues);
    return undefined;
  }
  const problems = owner.validate?.(result.value) ?? [];
  for (const problem of problems) {
    issues.push({ file, path: problem.path === "" ? path : `${path}.${problem.path}`, message: problem.message });
  }
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
  let body = config.driver.options;
  if (driver !== undefined) {
    const result = driverBodyIssues(config.driver.options, driver, driverFile, driverPath, blocks);
    issues.push(...result.issues);
    if (result.value !== undefined) {
      body = result.value;
      for (const problem of driver.validate?.(result.value, config) ?? []) {
        issues.push({ file: driverFile, path: problem.path === "" ? driverPath : `${driverPath}.${problem.path}`, message: problem.message });
      }
    }
  }
  // CTS resolves templates only in provider blocks; a driver may resolve them in fields it declares.
  const templateFields = driver?.templateFields ?? [];
  const allowed = templateFields.length === 0 ? "" : ` and in ${templateFields.map((field) => `${driverPath}.${field}`).join(", ")}`;
  for (const at of templatePaths(body)) {
    if (templateFields.includes(at.split(/[.[]/)[0]!)) continue;
    issues.push({ file: driverFile, path: `${driverPath}.${at}`, message: `${TEMPLATE_PLACES}${allowed}` });
  }
  config.tasks.forEach((task, index) => {
    issues.push(...checkTaskBlocks(task, `task[${index}]`, fileOf, registries, blocks));
  });
  return issues;
}
