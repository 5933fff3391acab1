/**
 * @module The files of a task's configuration version: the root module driver-terraform renders
 * (through `terraformRootModuleToken`, so both drivers write CTS's files) without a backend block,
 * as state lives in the workspace, and, for a local module, the module's files under `module/`:
 * the run happens on another machine, so a path on this one means nothing there.
 */
import {
  CtsError, type FileSystem, type ProviderConfig, type TaskConfig, type TaskInputSpec, type TerraformRootModule,
  type TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";

/** Where a local module sits inside the uploaded configuration. */
export const LOCAL_MODULE_DIR = "module";

/** Entries never shipped from a local module: Terraform's own caches and local state. */
const SKIPPED = /^(\.terraform|\.git|terraform\.tfstate.*|\.terraform\.lock\.hcl|.*\.tfplan)$/;

export interface ConfigurationSource {
  readonly task: TaskConfig;
  readonly inputs: readonly TaskInputSpec[];
  readonly providers: readonly ProviderConfig[];
  readonly requiredProviders: Readonly<Record<string, unknown>>;
}

export interface TaskConfiguration {
  readonly model: TerraformRootModuleModel;
  /** Every file of the upload, path → text. */
  readonly files: Record<string, string>;
}

export async function taskConfiguration(
  rootModule: TerraformRootModule,
  source: ConfigurationSource,
  fs: FileSystem,
): Promise<TaskConfiguration> {
  const { task } = source;
  const localModuleDir = rootModule.isLocalModuleSource(task.module) ? fs.resolve(task.module) : undefined;
  if (localModuleDir !== undefined && !(await fs.isDirectory(localModuleDir))) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot initialise task "${task.name}": module path ${localModuleDir} does not exist or is not a directory`);
  }
  const model = await rootModule.build({
    ...source,
    // A shipped local module is read from the upload; a version argument is not allowed on it.
    ...(localModuleDir !== undefined ? { moduleSource: `./${LOCAL_MODULE_DIR}`, moduleVersion: "" } : {}),
  });
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(rootModule.render(model))) if (text !== undefined) files[name] = text;
  if (localModuleDir !== undefined) await copyDirectory(fs, localModuleDir, LOCAL_MODULE_DIR, files);
  return { model, files };
}

async function copyDirectory(fs: FileSystem, dir: string, prefix: string, into: Record<string, string>): Promise<void> {
  for (const name of (await fs.readDir(dir)).sort()) {
    if (SKIPPED.test(name)) continue;
    const path = fs.resolve(dir, name);
    if (await fs.isDirectory(path)) await copyDirectory(fs, path, `${prefix}/${name}`, into);
    else into[`${prefix}/${name}`] = await fs.readText(path);
  }
}
