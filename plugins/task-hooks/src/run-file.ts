/**
 * @module The JSON file a hook reads to learn about the run (its path is `CTS_RUN_FILE`): the hook's
 * stage, the task (name, description, module, providers, working directory) and the run's record
 * as the daemon's API shows it, masked. Written readable by the daemon's user only, in the task's
 * working directory, and removed when the hook ends.
 */
import type { FileSystem, RunHookContext, SecretMasker } from "../../../core/plugin-api/mod.ts";
import type { HookStage } from "./hooks-block.ts";

const FILE_MODE = 0o600;

export interface RunDescription {
  readonly hook: HookStage;
  readonly task: {
    readonly name: string;
    readonly description: string;
    readonly module: string;
    readonly providers: readonly string[];
    readonly working_dir: string;
  };
  readonly run: RunHookContext["run"];
}

export function describeRun(stage: HookStage, context: RunHookContext): RunDescription {
  const { task } = context;
  return {
    hook: stage,
    task: { name: task.name, description: task.description, module: task.module, providers: [...task.providers], working_dir: context.workingDir },
    run: context.run,
  };
}

/** Writes the description; returns its path. The name carries the run id and stage, so none is overwritten. */
export async function writeRunFile(
  fs: FileSystem, masker: Pick<SecretMasker, "maskValue">, stage: HookStage, context: RunHookContext,
): Promise<string> {
  const path = fs.resolve(context.workingDir, `.cts-hook-${context.run.id}-${stage}.json`);
  await fs.writeText(path, `${JSON.stringify(masker.maskValue(describeRun(stage, context)), null, 2)}\n`, { mode: FILE_MODE });
  return path;
}
