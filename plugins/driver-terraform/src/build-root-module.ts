/**
 * @module Derives the root-module model from a task, its providers and the driver options, and
 * renders the files of the task's working directory from it.
 */
import type { ConsulConfig, ProviderConfig, TaskConfig, TaskInputSpec } from "../../../core/plugin-api/mod.ts";
import { resolveBackend } from "./backend.ts";
import type { TerraformOptions } from "./options.ts";
import { parseTaskVariables } from "./parse-task-variables.ts";
import { renderMainTf } from "./render-main-tf.ts";
import { renderModuleVariablesTf, renderVariablesAutoTfvars } from "./render-module-variables.ts";
import { renderProvidersTfvars } from "./render-providers-tfvars.ts";
import { renderTfvarsTemplate } from "./render-tfvars-template.ts";
import { renderVariablesTf } from "./render-variables-tf.ts";
import { tfvarsTemplates } from "./tfvars-templates.ts";
import {
  isLocalModuleSource, renderedInputs, type RootModuleModel, taskProviders, taskRequiredProviders,
} from "./root-module-model.ts";

export interface RootModuleSource {
  readonly task: TaskConfig;
  /** `DriverContext.inputs`: which variables the task's blocks render. */
  readonly inputs: readonly TaskInputSpec[];
  readonly providers: readonly ProviderConfig[];
  readonly options: TerraformOptions;
  readonly consul: ConsulConfig;
  /** Makes a relative local path absolute (against the daemon's working directory). */
  readonly resolvePath: (path: string) => string;
}

export async function buildRootModuleModel(source: RootModuleSource): Promise<RootModuleModel> {
  const { task } = source;
  const providers = taskProviders(task, source.providers);
  const moduleSource = isLocalModuleSource(task.module) && !task.module.startsWith("/")
    ? source.resolvePath(task.module)
    : task.module;
  return {
    taskName: task.name,
    description: task.description,
    moduleSource,
    moduleVersion: task.version,
    ...renderedInputs(source.inputs),
    providers,
    requiredProviders: taskRequiredProviders(providers, source.options.required_providers),
    backend: resolveBackend(source.options, source.consul),
    variables: await parseTaskVariables(task.variables),
    templates: tfvarsTemplates(task),
  };
}

/** File name → content; `undefined` means the file must not exist (stale copies are removed). */
export function renderRootModuleFiles(model: RootModuleModel): Record<string, string | undefined> {
  return {
    "main.tf": renderMainTf(model),
    "variables.tf": renderVariablesTf(model),
    "variables.module.tf": renderModuleVariablesTf(model),
    "variables.auto.tfvars": renderVariablesAutoTfvars(model),
    "providers.auto.tfvars": renderProvidersTfvars(model),
    "terraform.tfvars.tmpl": renderTfvarsTemplate(model),
  };
}
