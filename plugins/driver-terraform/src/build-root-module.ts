/**
 * @module Derives the root-module model from a task, its providers and the driver options, and
 * renders the files of the task's working directory from it.
 */
import type {
  ConsulConfig, ProviderConfig, TaskConfig, TaskInputSpec, TaskInputTemplate,
} from "../../../core/plugin-api/mod.ts";
import { resolveBackend } from "./backend.ts";
import type { TerraformOptions } from "./options.ts";
import { renderVariablesAutoTfvars } from "./render-module-variables.ts";
import { renderProvidersTfvars } from "./render-providers-tfvars.ts";
import { renderTfvarsTemplate } from "./render-tfvars-template.ts";
import { tfvarsTemplates } from "./tfvars-templates.ts";
import { isLocalModuleSource, type RootModuleModel } from "./root-module-model.ts";
import { buildTerraformRootModule, renderTerraformConfiguration } from "./root-module-service.ts";

export interface RootModuleSource {
  readonly task: TaskConfig;
  /** `DriverContext.inputs`: which variables the task's blocks render. */
  readonly inputs: readonly TaskInputSpec[];
  /** `DriverContext.templates`: each block's terraform.tfvars.tmpl text, from its owner. */
  readonly templates?: readonly TaskInputTemplate[];
  readonly providers: readonly ProviderConfig[];
  readonly options: TerraformOptions;
  readonly consul: ConsulConfig;
  /** Makes a relative local path absolute (against the daemon's working directory). */
  readonly resolvePath: (path: string) => string;
}

export async function buildRootModuleModel(source: RootModuleSource): Promise<RootModuleModel> {
  const { task } = source;
  const model = await buildTerraformRootModule({
    task,
    inputs: source.inputs,
    providers: source.providers,
    requiredProviders: source.options.required_providers,
    backend: resolveBackend(source.options, source.consul),
    moduleSource: isLocalModuleSource(task.module) && !task.module.startsWith("/")
      ? source.resolvePath(task.module)
      : task.module,
  });
  return { ...model, templates: tfvarsTemplates(source.inputs, source.templates) };
}

/** File name → content; `undefined` means the file must not exist (stale copies are removed). */
export function renderRootModuleFiles(model: RootModuleModel): Record<string, string | undefined> {
  return {
    ...renderTerraformConfiguration(model),
    "variables.auto.tfvars": renderVariablesAutoTfvars(model),
    "providers.auto.tfvars": renderProvidersTfvars(model),
    "terraform.tfvars.tmpl": renderTfvarsTemplate(model),
  };
}
