/**
 * @module Test helper: `DriverContext.inputs` and `DriverContext.templates` for a task, computed as
 * the engine computes them (the engine's taskInputSpecs and taskInputTemplates over the real
 * built-in condition and module-input factories), for tests that create a driver or a root-module
 * model without an engine.
 */
import type {
  ConditionFactory, ModuleInputFactory, TaskConfig, TaskInputSpec, TaskInputTemplate,
} from "../../core/plugin-api/mod.ts";
import { NamedRegistry } from "../../core/kernel/registries/named-registry.ts";
import {
  catalogServicesConditionFactory, consulKvConditionFactory, consulKvModuleInputFactory, servicesConditionFactory,
  servicesModuleInputFactory,
} from "../../plugins/consul-inputs/mod.ts";
import { scheduleConditionFactory } from "../../plugins/condition-schedule/mod.ts";
import { taskInputSpecs } from "../../plugins/task-engine/src/task-input-specs.ts";
import { taskInputTemplates } from "../../plugins/task-engine/src/task-input-templates.ts";

const conditions = new NamedRegistry<ConditionFactory>("condition");
for (const factory of [servicesConditionFactory, catalogServicesConditionFactory, consulKvConditionFactory, scheduleConditionFactory]) {
  conditions.register(factory);
}
const moduleInputs = new NamedRegistry<ModuleInputFactory>("module input");
for (const factory of [servicesModuleInputFactory, consulKvModuleInputFactory]) moduleInputs.register(factory);

/** What the engine would pass as `DriverContext.inputs` for `task`. */
export function taskInputSpecsOf(task: TaskConfig): TaskInputSpec[] {
  return taskInputSpecs(task, conditions, moduleInputs);
}

/** What the engine would pass as `DriverContext.templates` for `task`. */
export function taskInputTemplatesOf(task: TaskConfig): TaskInputTemplate[] {
  return taskInputTemplates(task, conditions, moduleInputs);
}
