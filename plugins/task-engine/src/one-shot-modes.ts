/**
 * @module The engine's one-shot modes: `-once` runs every task once and exits (code 11 on the first
 * failure, as CTS), `-inspect` plans the chosen tasks and exits; neither watches afterwards.
 */
import type { CtsConfig, Logger, RunOptions, Shutdown, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { TaskRuntime } from "./task-runtime.ts";

export interface OneShotParts {
  readonly context: EngineContext;
  readonly runOptions: RunOptions;
  readonly shutdown: Shutdown;
  readonly logger: Logger;
  /** CTS's controller lines (`ctrl: ...`). */
  readonly ctrl: Logger;
  /** How long a task's Consul data may take to arrive (see engine-options.ts). */
  readonly consulWaitMs: number;
  /** The engine was stopped. */
  readonly stopped: () => boolean;
}

export async function runOnceMode(parts: OneShotParts): Promise<void> {
  const { context, logger, ctrl, shutdown } = parts;
  const config: CtsConfig = context.config;
  if (config.tasks.length > 0) ctrl.info("executing all tasks once through");
  for (const task of config.tasks) {
    if (stopping(parts, task.name)) return;
    const runtime = new TaskRuntime({ config: task }, context);
    try {
      await context.records.store.putTask({ config: task });
      await runtime.prepare();
      if (!task.enabled) continue;
      // CTS's once-mode lines (controller/once.go): this, the run's own lines, then `task completed`.
      ctrl.info("running task once", { task_name: task.name });
      await startSourcesWithin(parts, runtime, task.name);
      const event = await runtime.request({ reason: { kind: "startup", detail: "once" }, force: true, retries: false });
      if (event && !event.success) throw new Error(event.error?.message ?? "apply failed");
    } catch (error) {
      if (stopping(parts, task.name)) return;
      logger.error("task failed", { task_name: task.name, error: errorMessage(error) });
      shutdown.requestExit(11, `Cannot run task "${task.name}": ${errorMessage(error)}`);
      return;
    } finally {
      runtime.stopWatching();
      await runtime.dispose();
    }
  }
  ctrl.info("all tasks completed once");
  shutdown.requestExit(0, "all tasks completed once");
}

export async function runInspectMode(parts: OneShotParts): Promise<void> {
  const { context, logger, shutdown } = parts;
  const config = context.config;
  const wanted = parts.runOptions.inspectTasks;
  const unknown = wanted.filter((name) => !config.tasks.some((task) => task.name === name));
  if (unknown.length > 0) {
    shutdown.requestExit(15, `Cannot inspect task "${unknown[0]}": no task with that name is configured`);
    return;
  }
  const tasks: TaskConfig[] = config.tasks.filter((task) => wanted.length === 0 || wanted.includes(task.name));
  for (const task of tasks) {
    if (stopping(parts, task.name)) return;
    const runtime = new TaskRuntime({ config: task }, context);
    try {
      await startSourcesWithin(parts, runtime, task.name);
      const plan = await runtime.plan();
      logger.info("inspection results", { task_name: task.name, plan: plan.plan, ...(plan.url ? { url: plan.url } : {}) });
    } catch (error) {
      if (stopping(parts, task.name)) return;
      logger.error("inspection failed", { task_name: task.name, error: errorMessage(error) });
      shutdown.requestExit(11, `Cannot inspect task "${task.name}": ${errorMessage(error)}`);
      return;
    } finally {
      runtime.stopWatching();
      await runtime.dispose();
    }
  }
  shutdown.requestExit(0, "inspection complete");
}

/** A stop (signal) ended the pass: the signal's exit stands, and no later task may start. */
function stopping(parts: OneShotParts, taskName: string): boolean {
  if (!parts.stopped() && !parts.context.signal.aborted) return false;
  parts.logger.info("stopped before the task ran", { task_name: taskName });
  return true;
}

/** The task's Consul data must arrive in time; the daemon would keep retrying. */
async function startSourcesWithin(parts: OneShotParts, runtime: TaskRuntime, taskName: string): Promise<void> {
  const ms = parts.consulWaitMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = runtime.startSources();
  // The caller stops the runtime on timeout, which ends this start; its outcome is then moot.
  started.catch(() => {});
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const { consul } = parts.context;
      const why = consul.connectionState().lastError ?? "Consul did not answer";
      reject(new CtsError("CTS_ERR_CONSUL", `Cannot read task "${taskName}"'s data from Consul at ${consul.address} within ${ms / 1000}s: ${why}`));
    }, ms);
  });
  try {
    await Promise.race([started, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
