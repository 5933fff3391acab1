/**
 * @module The `terraformRootModuleToken` service: builds and renders the part of a task's root
 * module every Terraform-running driver shares (main.tf, variables.tf, variables.module.tf). This
 * driver's own files (the tfvars and the template) are added on top by build-root-module.ts.
 */
import type {
  TerraformRootModule, TerraformRootModuleModel, TerraformRootModuleSource,
} from "../../../core/plugin-api/mod.ts";
import { encodeHclValue } from "./hcl-value.ts";
import { parseTaskVariables } from "./parse-task-variables.ts";
import { renderMainTf } from "./render-main-tf.ts";
import { renderModuleVariablesTf } from "./render-module-variables.ts";
import { renderVariablesTf } from "./render-variables-tf.ts";
import {
  isLocalModuleSource, providerValue, renderedInputs, taskProviders, taskRequiredProviders,
} from "./root-module-model.ts";

export async function buildTerraformRootModule(source: TerraformRootModuleSource): Promise<TerraformRootModuleModel> {
  const { task } = source;
  const providers = taskProviders(task, source.providers);
  return {
    taskName: task.name,
    description: task.description,
    moduleSource: source.moduleSource ?? task.module,
    moduleVersion: source.moduleVersion ?? task.version,
    ...renderedInputs(task.name, source.inputs),
    providers,
    requiredProviders: taskRequiredProviders(providers, source.requiredProviders),
    ...(source.backend ? { backend: source.backend } : {}),
    variables: await parseTaskVariables(task.variables),
  };
}

export function renderTerraformConfiguration(model: TerraformRootModuleModel): Record<string, string | undefined> {
  return {
    "main.tf": renderMainTf(model),
    "variables.tf": renderVariablesTf(model),
    "variables.module.tf": renderModuleVariablesTf(model),
  };
}

export const terraformRootModule: TerraformRootModule = Object.freeze({
  build: buildTerraformRootModule,
  render: renderTerraformConfiguration,
  encodeHclValue: (value: unknown, indent?: number) => encodeHclValue(value, indent),
  providerValue,
  isLocalModuleSource,
});
