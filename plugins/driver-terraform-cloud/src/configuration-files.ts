/**
 * @module The files of a task's configuration version: the root module driver-terraform renders
 * (through `terraformRootModuleToken`, so both drivers write CTS's files) without a backend block,
 * as state lives in the workspace, and, for a local module, the module's files under `module/`
 * (module-files.ts): the run happens on another machine, so a path on this one means nothing there.
 */
import {
  CtsError, type FileSystem, type ProviderConfig, type TaskConfig, type TaskInputSpec, type TerraformRootModule,
  type TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";
import { moduleEntries } from "./module-files.ts";
import { textEntry, type UploadEntry } from "./upload-archive.ts";

/** Where a local module sits inside the uploaded configuration. */
export const LOCAL_MODULE_DIR = "module";

export interface ConfigurationSource {
  readonly task: TaskConfig;
  readonly inputs: readonly TaskInputSpec[];
  readonly providers: readonly ProviderConfig[];
  readonly requiredProviders: Readonly<Record<string, unknown>>;
}

export interface TaskConfiguration {
  readonly model: TerraformRootModuleModel;
  /** Every entry of the upload. */
  readonly entries: readonly UploadEntry[];
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
  const entries: UploadEntry[] = [];
  for (const [name, text] of Object.entries(rootModule.render(model))) if (text !== undefined) entries.push(textEntry(name, text));
  if (localModuleDir !== undefined) entries.push(...await moduleEntries(fs, localModuleDir, LOCAL_MODULE_DIR));
  return { model, entries };
}
