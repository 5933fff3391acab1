/**
 * @module The files of a task's configuration version: main.tf, variables.tf, variables.module.tf
 * and, for a local module, the module's files under `module/` (the run happens on another machine,
 * so a path on this one means nothing there).
 */
import {
  CtsError, type FileSystem, type ProviderConfig, type TaskConfig, type TaskInputSpec,
} from "../../../../core/plugin-api/mod.ts";
import { parseTaskVariables } from "./parse-task-variables.ts";
import { renderMainTf } from "./render-main-tf.ts";
import { renderModuleVariablesTf } from "./render-module-variables-tf.ts";
import { renderVariablesTf } from "./render-variables-tf.ts";
import {
  isLocalModuleSource, LOCAL_MODULE_DIR, renderedInputs, type RootModuleModel, taskProviders, taskRequiredProviders,
} from "./root-module-model.ts";

export interface RootModuleSource {
  readonly task: TaskConfig;
  /** `DriverContext.inputs`: which variables the task's blocks render. */
  readonly inputs: readonly TaskInputSpec[];
  readonly providers: readonly ProviderConfig[];
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  readonly fs: FileSystem;
}

/** Entries never shipped from a local module: Terraform's own caches and local state. */
const SKIPPED = /^(\.terraform|\.git|terraform\.tfstate.*|\.terraform\.lock\.hcl|.*\.tfplan)$/;

export async function buildRootModuleModel(source: RootModuleSource): Promise<RootModuleModel> {
  const { task, fs } = source;
  const providers = taskProviders(task, source.providers);
  const local = isLocalModuleSource(task.module);
  const localModuleDir = local ? fs.resolve(task.module) : undefined;
  if (localModuleDir !== undefined && !(await fs.isDirectory(localModuleDir))) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot initialise task "${task.name}": module path ${localModuleDir} does not exist or is not a directory`);
  }
  return {
    taskName: task.name,
    description: task.description,
    moduleSource: local ? `./${LOCAL_MODULE_DIR}` : task.module,
    ...(localModuleDir !== undefined ? { localModuleDir } : {}),
    moduleVersion: local ? "" : task.version,
    ...renderedInputs(source.inputs),
    providers,
    requiredProviders: taskRequiredProviders(providers, source.requiredProviders),
    variables: await parseTaskVariables(task.variables),
  };
}

/** Every file of the upload, path → text. */
export async function rootModuleFiles(model: RootModuleModel, fs: FileSystem): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    "main.tf": renderMainTf(model),
    "variables.tf": renderVariablesTf(model),
  };
  const moduleVariables = renderModuleVariablesTf(model);
  if (moduleVariables !== undefined) files["variables.module.tf"] = moduleVariables;
  if (model.localModuleDir !== undefined) await copyDirectory(fs, model.localModuleDir, LOCAL_MODULE_DIR, files);
  return files;
}

async function copyDirectory(fs: FileSystem, dir: string, prefix: string, into: Record<string, string>): Promise<void> {
  for (const name of (await fs.readDir(dir)).sort()) {
    if (SKIPPED.test(name)) continue;
    const path = fs.resolve(dir, name);
    if (await fs.isDirectory(path)) await copyDirectory(fs, path, `${prefix}/${name}`, into);
    else into[`${prefix}/${name}`] = await fs.readText(path);
  }
}
