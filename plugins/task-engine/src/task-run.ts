/**
 * @module One run of a task, start to end: the guards (not owned, inputs missing or refused,
 * unchanged since the last apply), the hooks around it, the driver's render and apply with quick
 * retries, then its CTS event, its run record and the follow-up retry of a failure.
 */
import type {
  ApplyResult, HookReport, Logger, RunHookContext, RunRecord, TaskConfig, TaskEvent, TaskInputs, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage, isCtsError } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { inputHash } from "./input-hash.ts";
import { appliedEnd } from "./inspect-run.ts";
import { withRetries } from "./retry.ts";
import { HaltedError, missingInputsText } from "./run-guards.ts";
import { endedView, RunCancelled } from "./run-hooks.ts";
import type { RunRequest } from "./run-queue.ts";
import { unchangedInputs, type OpenRun, type RunRecorder } from "./run-recorder.ts";
import type { RunState } from "./run-state.ts";
import type { TaskDriverSlot } from "./task-driver-slot.ts";
import { eventStart, finishEvent } from "./task-event.ts";
import type { TaskEventLog } from "./task-event-log.ts";
import type { TaskWatch } from "./task-watch.ts";

/** Applies are never cancelled half-way (a half-written apply is worse than a late stop). */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** The parts of a task runtime a run reads and what it tells the runtime back. */
export interface RunParts {
  readonly config: () => TaskConfig;
  readonly ctx: EngineContext;
  readonly logger: Logger;
  readonly watch: TaskWatch;
  readonly driver: TaskDriverSlot;
  readonly runState: RunState;
  readonly recorder: RunRecorder;
  readonly events: TaskEventLog;
  readonly deleting: () => boolean;
  /** These inputs are applied now (or were, when a run was skipped as unchanged). */
  readonly applied: (inputs: TaskInputs) => void;
  /** The CtsError code of a failed run's cause (undefined for other errors). */
  readonly failedWith: (code: string | undefined) => void;
  readonly followUp: (request: RunRequest, error: string | undefined) => void;
  readonly recordQueryError: (error: unknown, trigger: TriggerReason) => Promise<TaskEvent>;
}

export async function executeRun(parts: RunParts, request: RunRequest): Promise<TaskEvent | undefined> {
  const { ctx, logger, watch, recorder, runState } = parts;
  const task = parts.config();
  if (parts.deleting() || !task.enabled) return undefined;
  // Shared cluster mode: another instance runs it (the lock is released only after this run ends).
  if (ctx.instance.owns && !ctx.instance.owns(task.name)) return undefined;
  const start = eventStart(task, request.reason, ctx);
  if (watch.inputsRejected !== undefined) {
    const error = `Cannot run task "${task.name}": its Consul data never arrived: ${watch.inputsRejected}`;
    return recordFailed(parts, request.reason, finishEvent(start, { error }), error);
  }
  const missing = watch.missing();
  if (missing.length > 0) {
    // A run on an input not received yet could render it empty and destroy what the module manages.
    const error = `Cannot start the run: ${missingInputsText(missing)}`;
    logger.warn("run not started", { trigger: request.reason.kind, error });
    // A forced run (-once, run=now) was asked for explicitly: it fails visibly instead of vanishing.
    if (request.force) return recordFailed(parts, request.reason, finishEvent(start, { error }), error);
    await recorder.skipped(request.reason, "input_missing");
    return undefined;
  }
  const inputs = watch.current();
  const fingerprint = await inputHash(watch.fingerprinted(inputs));
  if (!request.force && runState.unchanged(fingerprint)) {
    // CTS records "no changes" for scheduled runs; a new leader records that it skipped the apply.
    if (request.reason.kind === "schedule" || request.reason.kind === "leader") {
      logger.info(request.reason.kind === "schedule"
        ? "scheduled task triggered but had no changes" // CTS's wording (tasks_manager.go)
        : "inputs unchanged since the last apply, apply skipped", { trigger: request.reason.kind });
      parts.applied(inputs);
      const event = await parts.events.record(finishEvent(start, { skipped: true }));
      await recorder.skipped(request.reason, "unchanged_inputs", unchangedInputs(inputs), event.id);
      return event;
    }
    parts.applied(inputs);
    logger.debug("inputs unchanged since the last apply, run dropped", { trigger: request.reason.kind });
    await recorder.skipped(request.reason, "unchanged_inputs", unchangedInputs(inputs));
    return undefined;
  }
  const pending = recorder.compare(inputs);
  // A retry's record carries the error it retries, whichever of the two begins below starts it.
  const retried = request.previousError !== undefined ? { previousError: request.previousError } : {};
  let open: OpenRun | undefined;
  let applied: ApplyResult | undefined;
  // CTS's wording (tasks_manager.go), which operators alert on; our fields follow.
  logger.info("executing task", { trigger: request.reason.kind, ...detail(request.reason) });
  let error: string | undefined;
  let url: string | undefined;
  let hooked: readonly HookReport[] = [];
  try {
    await ctx.runs.limiter.run(async () => {
      // Waiting for a slot can outlast leadership or the process; a run that has not started yet is skipped.
      if ((watch.halted || ctx.signal.aborted) && request.reason.kind !== "api") throw new HaltedError();
      const run = open = recorder.begin(request.reason, pending, retried);
      // Before anything is rendered or stored: a veto leaves the task as it was (run-hooks.ts).
      hooked = await ctx.runs.hooks.before(hookContext(parts, run.record));
      // Stored before anything is applied: a crash from here on leaves "started", never a success.
      await runState.record(task, fingerprint, "started");
      await parts.driver.prepare();
      const driver = parts.driver.driver!;
      await driver.render(inputs, ctx.signal);
      applied = (await withRetries(() => driver.apply(NEVER_ABORTED, run.observer), request.retries ? 2 : 0, ctx.signal, (retry, cause) => {
        logger.warn("apply failed, retrying", { retry, error: errorMessage(cause) });
        run.observer.output("apply", `\n--- apply failed, retry ${retry} of 2 ---\n`);
      })) || undefined;
      url = applied?.url;
      // Not applied, and not the task's fault (a run that made way for newer inputs): failed, never retried.
      if (applied?.unapplied !== undefined) error = applied.unapplied;
    });
  } catch (cause) {
    if (cause instanceof HaltedError) return undefined;
    if (cause instanceof RunCancelled) return cancelled(logger, open!, cause);
    error = errorMessage(cause);
    url = failureUrl(cause);
    parts.failedWith(isCtsError(cause) ? cause.code : undefined);
    logger.error("error running task", { error });
  }
  parts.driver.clearWaiting();
  await runState.record(task, fingerprint, error === undefined ? "succeeded" : "failed", open?.record.id);
  if (error === undefined) parts.applied(inputs);
  if (error === undefined) logger.info("task completed");
  const run = open ?? recorder.begin(request.reason, pending, retried);
  const afterHooks = await ctx.runs.hooks.after(hookContext(parts, endedView(run.record, error, applied?.summary)), hooked);
  // A retry that fails again is one more attempt at the same change: like CTS's quick retries inside
  // a run, it adds no CTS event (the task stays "errored", not "critical"); its run record tells.
  const attemptOnly = error !== undefined && request.reason.kind === "retry" && request.followUp !== false;
  const finished = finishEvent(start, { error, ...(url ? { url } : {}) });
  const event = attemptOnly ? finished : await parts.events.record(finished);
  await run.end({
    ...appliedEnd(attemptOnly ? undefined : event.id, error, applied, parts.driver.takeInitMs()),
    ...(afterHooks ? { extra: afterHooks } : {}),
  });
  // A run on data received before Consul began refusing a query must not hide that refusal: the
  // task still cannot see changes, so its status stays failed until the query answers again.
  if (error === undefined && watch.queryRejected !== undefined) await parts.recordQueryError(new Error(watch.queryRejected), request.reason);
  parts.followUp(request, error);
  return event;
}

/** What run hooks see of this task's run. */
function hookContext(parts: RunParts, run: RunRecord): RunHookContext {
  const task = parts.config();
  return { task, run, workingDir: parts.ctx.fileSystem.resolve(task.working_dir), signal: parts.ctx.signal };
}

/** A run a hook vetoed: a record of its own (no CTS event, nothing stored as applied or failed). */
async function cancelled(logger: Logger, open: OpenRun, cancel: RunCancelled): Promise<undefined> {
  logger.warn("run cancelled by a hook before the apply", { error: cancel.message });
  await open.end({ outcome: "cancelled", error: cancel.message, extra: cancel.reports.length > 0 ? { hooks: cancel.reports } : {} });
  return undefined;
}

/** A run that failed before the driver ran: its CTS event and its history record. */
async function recordFailed(parts: RunParts, trigger: TriggerReason, failed: TaskEvent, error: string): Promise<TaskEvent> {
  const event = await parts.events.record(failed);
  await parts.recorder.begin(trigger).end({ outcome: "failed", error, eventId: event.id });
  return event;
}

/** Where a failed run can be seen, when the driver's error says (DriverRunFailure). */
function failureUrl(cause: unknown): string | undefined {
  const url = (cause as { url?: unknown } | undefined)?.url;
  return typeof url === "string" && url !== "" ? url : undefined;
}

function detail(reason: TriggerReason): Record<string, string> {
  return reason.detail ? { detail: reason.detail } : {};
}
