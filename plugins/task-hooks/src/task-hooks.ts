/**
 * @module The run hook this plugin registers: each task's `pre_apply` commands before the driver
 * applies (the first that fails cancels the run, the rest do not run) and its `post_apply`
 * commands after the apply (every one runs; a failure marks the run). Each command gets a JSON
 * description of the run in a file of its own, removed when it ends.
 */
import {
  errorMessage, type FileSystem, type HookReport, type Logger, type ProcessRunner, type RunHook, type RunHookContext,
  type SecretMasker, taskBlockOf,
} from "../../../core/plugin-api/mod.ts";
import { runHookCommand } from "./hook-command.ts";
import { type HookConfig, HOOKS_BLOCK, type HooksBlock, type HookStage } from "./hooks-block.ts";
import { writeRunFile } from "./run-file.ts";

export interface TaskHooksDeps {
  readonly processes: ProcessRunner;
  readonly fs: FileSystem;
  readonly masker: SecretMasker;
  readonly logger: Logger;
  readonly maxOutputChars: number;
}

/** `CTS_RUN_STATUS`: `pending` before the apply, then how the apply ended. */
function statusOf(stage: HookStage, context: RunHookContext): string {
  if (stage === "pre_apply") return "pending";
  return context.run.outcome === "applied" ? "succeeded" : "failed";
}

export function createTaskHooks(deps: TaskHooksDeps): RunHook {
  const runStage = async (stage: HookStage, context: RunHookContext, stopAtFailure: boolean): Promise<HookReport[]> => {
    const hooks = (taskBlockOf(context.task, HOOKS_BLOCK) as HooksBlock | undefined)?.[stage] ?? [];
    const reports: HookReport[] = [];
    for (const [index, hook] of hooks.entries()) {
      const name = hooks.length === 1 ? stage : `${stage}[${index}]`;
      const report = await runOne(stage, name, hook, context);
      reports.push(report);
      const fields = { task_name: context.task.name, hook: name, run_id: context.run.id, ...(report.exit_code !== undefined ? { exit_code: report.exit_code } : {}) };
      if (report.outcome === "ok") deps.logger.info("hook succeeded", fields);
      else deps.logger.warn("hook failed", { ...fields, error: report.error ?? report.outcome });
      if (report.outcome !== "ok" && stopAtFailure) break;
    }
    return reports;
  };

  const runOne = async (stage: HookStage, name: string, hook: HookConfig, context: RunHookContext): Promise<HookReport> => {
    let file: string;
    try {
      file = await writeRunFile(deps.fs, deps.masker, stage, context);
    } catch (error) {
      return { name, outcome: "failed", error: `cannot write the run's description: ${deps.masker.mask(errorMessage(error))}`, duration_ms: 0 };
    }
    try {
      return await runHookCommand({
        name, hook, cwd: context.workingDir, signal: context.signal,
        env: { CTS_TASK_NAME: context.task.name, CTS_RUN_ID: context.run.id, CTS_RUN_STATUS: statusOf(stage, context), CTS_RUN_FILE: file, CTS_HOOK: stage },
      }, deps);
    } finally {
      await deps.fs.remove(file).catch(() => {});
    }
  };

  return {
    name: "task-hooks",
    async beforeApply(context) {
      const reports = await runStage("pre_apply", context, true);
      const failed = reports.find((report) => report.outcome !== "ok");
      if (failed === undefined) return { reports };
      return { reports, veto: `Cannot apply: the ${failed.name} hook ${failed.error ?? "failed"}` };
    },
    afterApply: (context) => runStage("post_apply", context, false),
  };
}
