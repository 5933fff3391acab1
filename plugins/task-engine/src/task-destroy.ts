/**
 * @module Destroy on delete (beyond CTS, whose delete leaves every resource behind, CTS#745): between
 * runs, the driver destroys the task's resources with the inputs it last applied, the destroy is
 * recorded as the task's last run (a CTS event and a run record of kind `destroy`), and only then is
 * the task marked for deletion. A failed destroy keeps the task, errored, its record naming the
 * resources left. A destroy is never retried.
 */
import type { InspectPlan, PlanSummary, TaskEvent } from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import type { TaskRuntime } from "./task-runtime.ts";

const DESTROY_REASON = { kind: "api", detail: "delete destroy=true" } as const;

/** Destroys in progress, so a repeated request waits for the same destroy. */
const destroying = new WeakMap<TaskRuntime, Promise<TaskEvent>>();

/** Renders what the task last applied (else its current inputs) for a destroy or its plan. */
async function renderForDestroy(runtime: TaskRuntime, ctx: EngineContext): Promise<void> {
  await runtime.prepare();
  const inputs = runtime.lastAppliedInputs ?? runtime.currentInputs;
  // Without any inputs the working directory keeps the last rendered ones (a destroy reads the state).
  if (inputs) await runtime.driver!.render(inputs, ctx.signal);
}

/** The plan of the destroy (`?destroy=true&run=inspect`); changes nothing. */
export function planTaskDestroy(runtime: TaskRuntime, ctx: EngineContext): Promise<InspectPlan> {
  return runtime.exclusive(async () => {
    await renderForDestroy(runtime, ctx);
    const driver = runtime.driver!;
    if (!driver.planDestroy) {
      throw new CtsError("CTS_ERR_DRIVER", `Cannot plan the destroy of task "${runtime.name}": driver "${runtime.config.driver}" cannot plan a destroy`);
    }
    const plan = await driver.planDestroy(ctx.signal);
    return { ...plan, plan: ctx.records.secrets.mask(plan.plan) };
  });
}

/**
 * Destroys the task's resources. On success the task is marked for deletion before any queued run
 * could start (the caller removes it); on failure it throws CTS_ERR_TASK and the task stays.
 */
export function destroyTask(runtime: TaskRuntime, ctx: EngineContext): Promise<TaskEvent> {
  const running = destroying.get(runtime);
  if (running) return running;
  const work = runtime.exclusive(() => destroyBetweenRuns(runtime, ctx));
  destroying.set(runtime, work);
  const forget = () => destroying.delete(runtime);
  work.then(forget, forget);
  return work;
}

async function destroyBetweenRuns(runtime: TaskRuntime, ctx: EngineContext): Promise<TaskEvent> {
  const mask = (text: string) => ctx.records.secrets.mask(text);
  const logger = ctx.logger.child("", { task_name: runtime.name });
  const startedAt = new Date();
  const open = runtime.recorder.begin(DESTROY_REASON, { change: {} }, { kind: "destroy" });
  logger.info("destroying the task's resources before deleting it");
  let error: string | undefined;
  let summary: PlanSummary | undefined;
  let url: string | undefined;
  try {
    await renderForDestroy(runtime, ctx);
    const result = await runtime.driver!.destroy(ctx.signal);
    summary = result ? result.summary : undefined;
    url = result ? result.url : undefined;
  } catch (cause) {
    error = mask(errorMessage(cause));
  }
  if (error === undefined) {
    // Before the queue opens again: a run waiting behind the destroy must not re-create anything.
    runtime.markDeleting();
    logger.info("task resources destroyed", summary ? { destroyed: summary.destroy } : {});
  } else {
    logger.error("destroy failed: the task is kept", { error });
  }
  const left = error === undefined ? undefined : await runtime.driver?.resources?.(ctx.signal).catch(() => undefined);
  const event = await runtime.recordEvent(DESTROY_REASON, startedAt, { ...(error !== undefined ? { error } : {}), ...(url ? { url } : {}) });
  await open.end({
    outcome: error === undefined ? "applied" : "failed", eventId: event.id,
    ...(error !== undefined ? { error } : {}), ...(summary ? { plan: summary } : {}),
    ...(left ? { extra: { resources_left: left.map(mask) } } : {}),
  });
  if (error !== undefined) {
    const remaining = left && left.length > 0 ? ` (resources left: ${left.map(mask).join(", ")})` : "";
    const why = error.startsWith(`Cannot destroy task "${runtime.name}": `) ? error : `Cannot destroy task "${runtime.name}": ${error}`;
    throw new CtsError("CTS_ERR_TASK", `${why}${remaining}; the task was kept`);
  }
  return event;
}
