/**
 * @module One task inside the engine: its driver, what it watches, its serial run queue and its
 * retries. A run reads the newest inputs when it starts and is skipped only when the last run
 * succeeded with exactly the same fingerprint (rendered inputs and watched data), unless forced
 * (task-run.ts); work between runs (drift check, destroy, update) goes through `exclusive`.
 */
import type {
  Driver, InspectPlan, Logger, RunObserver, StoredTask, TaskConfig, TaskEvent, TaskInputs, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { FollowUpRetry } from "./follow-up-retry.ts";
import { HeldEffects } from "./held-effects.ts";
import { missingInputsText } from "./run-guards.ts";
import { RunQueue, type RunRequest } from "./run-queue.ts";
import { RunState } from "./run-state.ts";
import { RunRecorder, unchangedInputs } from "./run-recorder.ts";
import { eventStart, finishEvent } from "./task-event.ts";
import { inspectRun, type InspectResult } from "./inspect-run.ts";
import { TaskDriverSlot } from "./task-driver-slot.ts";
import { TaskEventLog } from "./task-event-log.ts";
import { executeRun, type RunParts } from "./task-run.ts";
import { TaskWatch } from "./task-watch.ts";

export class TaskRuntime {
  #config: TaskConfig;
  readonly #ctx: EngineContext;
  readonly #logger: Logger;
  readonly #queue: RunQueue<TaskEvent | undefined>;
  readonly #driver: TaskDriverSlot;
  readonly #watch: TaskWatch;
  readonly #runState: RunState;
  readonly #recorder: RunRecorder;
  readonly #events: TaskEventLog;
  /** Retries of a failed run under the engine's retry policy. */
  readonly #retry: FollowUpRetry;
  /** Stored events, run records, listeners and live events: held until a task being created is stored. */
  readonly #effects: HeldEffects;
  #deleting = false;
  #lastErrorCode: string | undefined;
  /** The inputs of the last successful apply (or of a skip because they were unchanged): what drift checks and destroys render. */
  #lastApplied: TaskInputs | undefined;

  constructor(stored: StoredTask, ctx: EngineContext, events: readonly TaskEvent[] = [], inStore = true) {
    this.#config = stored.config;
    this.#ctx = ctx;
    // Same name as the engine's, as CTS logs task lines under `tasksmanager` with `task_name`.
    this.#logger = ctx.logger.child("", { task_name: stored.config.name });
    // Not in the store yet (a task being created) means its runs must not store it early.
    this.#runState = new RunState(ctx.records.store, this.#logger, stored, inStore);
    this.#effects = new HeldEffects(!inStore);
    this.#recorder = new RunRecorder(() => this.#config.name, ctx, this.#logger, this.#effects);
    this.#events = new TaskEventLog(events, {
      ctx, logger: this.#logger, effects: this.#effects, recorder: this.#recorder, enabled: () => this.#config.enabled,
    });
    this.#queue = new RunQueue((request) => executeRun(this.#runParts(), request));
    this.#driver = new TaskDriverSlot(() => this.#config, ctx, () => this.#queue.queued);
    this.#watch = new TaskWatch(ctx, this.#logger, {
      triggered: (reason) => this.#triggered(reason),
      unchanged: (reason) => {
        if (this.#deleting) return;
        void this.#recorder.skipped(reason, this.#config.enabled ? "unchanged_inputs" : "disabled", unchangedInputs(this.#watch.current()));
      },
      buffered: (reason) => void this.request({ reason, force: false, retries: true }),
      queryRejected: (error) => void this.recordQueryError(error, { kind: "dependency", detail: "Consul rejected a query" }),
      startFailed: () => this.stopWatching(),
    });
    this.#retry = new FollowUpRetry(ctx.runs.retry, this.#logger, ({ reason, previousError }) =>
      void this.request({ reason, force: false, retries: true, previousError }));
  }

  get name(): string {
    return this.#config.name;
  }
  get config(): TaskConfig {
    return this.#config;
  }
  get events(): readonly TaskEvent[] {
    return this.#events.events;
  }
  get running(): boolean {
    return this.#queue.running;
  }
  get armed(): boolean {
    return this.#watch.armed;
  }
  get deleting(): boolean {
    return this.#deleting;
  }
  get waiting(): string | undefined {
    return this.#driver.waiting;
  }
  /** The last run, and what the task store keeps for this task. */
  get runState(): RunState {
    return this.#runState;
  }
  /** The run history and live events of this task. */
  get recorder(): RunRecorder {
    return this.#recorder;
  }
  /** The inputs last applied successfully in this process; undefined before that. */
  get lastAppliedInputs(): TaskInputs | undefined {
    return this.#lastApplied;
  }
  /** Takes over what another runtime of this task applied (an update that changed nothing it applies). */
  inheritApplied(inputs: TaskInputs | undefined): void {
    this.#lastApplied = inputs;
  }
  /** The current inputs, or undefined while a source has not delivered its first value. */
  get currentInputs(): TaskInputs | undefined {
    return this.#watch.missing().length > 0 ? undefined : this.#watch.current();
  }
  /** The prepared driver (after `prepare`). */
  get driver(): Driver | undefined {
    return this.#driver.driver;
  }

  /** Runs `work` between runs (drift check, destroy, update): no run overlaps it. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.exclusive(work);
  }

  /** Records an event for work outside a run (a destroy); `error` undefined means success. */
  recordEvent(reason: TriggerReason, startedAt: Date, outcome: { error?: string; url?: string }): Promise<TaskEvent> {
    const start = { ...eventStart(this.#config, reason, this.#ctx), startedAt };
    return this.#events.record(finishEvent(start, outcome));
  }

  /** The CtsError code of the last failed run (e.g. CTS_ERR_STATE_LOCKED), so the engine can tell why. */
  get lastErrorCode(): string | undefined {
    return this.#lastErrorCode;
  }

  /** Records a failed event for a failure outside a run (the driver's init), so status and events show it. */
  recordFailure(reason: TriggerReason, error: unknown): Promise<TaskEvent> {
    const start = { task: this.#config, trigger: reason, instanceId: this.#ctx.instance.id, startedAt: new Date() };
    return this.#events.record(finishEvent(start, { error: errorMessage(error) }));
  }

  /** Creates the driver (again when `reinit`) and runs its `init`. */
  prepare(reinit = false): Promise<void> {
    return this.#driver.prepare(reinit);
  }

  /** Throws what the driver's init found wrong but keeps for the first run (an invalid module: CTS refuses its create). */
  checkDriver(): void {
    this.#driver.driver?.check?.();
  }

  /** The task being created is stored now: its held events, run records and notices go out. */
  async commit(): Promise<void> {
    this.#runState.markStored();
    await this.#effects.release();
  }

  /** The create was rejected: what was held is dropped, and the driver undoes what its init made. */
  async abandon(): Promise<void> {
    this.stopWatching();
    this.#effects.drop();
    await this.#driver.driver?.discard?.(this.#ctx.signal);
    await this.dispose();
  }

  /** Starts the condition and module inputs; resolves once each published its first value. */
  startSources(): Promise<void> {
    return this.#watch.start(this.#config);
  }

  /** From now on condition triggers queue runs (before this, first values only fill inputs). */
  arm(): void {
    this.#watch.arm();
  }

  /** Stops sources, drops a buffered or queued run; a run in progress finishes. */
  stopWatching(): void {
    this.#watch.stop();
    this.#queue.drop();
    this.#retry.cancel();
  }

  /** Queues a run; any run but a retry supersedes a pending retry (it reads the newest inputs anyway). */
  request(request: RunRequest): Promise<TaskEvent | undefined> {
    if (request.reason.kind !== "retry") this.#retry.supersede();
    return this.#queue.request(request);
  }

  /** The engine retries this failure its own way (a state lock held at start-up). */
  cancelRetry(): void {
    this.#retry.cancel();
  }

  /** Renders the current inputs and plans (inspect); nothing is applied or recorded. */
  async plan(observer?: RunObserver): Promise<InspectPlan> {
    const missing = this.#watch.missing();
    if (missing.length > 0) {
      throw new CtsError("CTS_ERR_TASK", `Cannot plan task "${this.#config.name}": ${missingInputsText(missing)}`);
    }
    await this.prepare();
    const driver = this.#driver.driver!;
    await driver.render(this.#watch.current(), this.#ctx.signal);
    return driver.plan(this.#ctx.signal, observer);
  }

  /** Plans like `plan`, kept as an inspection's run record (its plan, resources and timing). */
  inspect(reason: TriggerReason): Promise<InspectResult> {
    const change = this.#watch.missing().length === 0 ? this.#recorder.compare(this.#watch.current()).change : {};
    return inspectRun(this.#recorder, reason, change, (observer) => this.plan(observer), () => this.#driver.takeInitMs());
  }

  setConfig(config: TaskConfig): void {
    this.#config = config;
  }

  markDeleting(): void {
    this.#deleting = true;
    this.stopWatching();
  }

  /** Resolves when no buffered, queued or running run is left. */
  async whenIdle(): Promise<void> {
    await this.#watch.settled();
    await this.#queue.whenIdle();
  }

  dispose(): Promise<void> {
    return this.#driver.dispose();
  }

  /** Records a permanent Consul error of the task's queries as a failed event (the task's status shows it). */
  async recordQueryError(error: unknown, trigger: TriggerReason): Promise<TaskEvent> {
    const message = errorMessage(error);
    this.#logger.error("Consul rejected a query of the task", { error: message });
    return this.recordFailure(trigger, error);
  }

  #triggered(reason: TriggerReason): void {
    if (!this.#watch.armed || this.#deleting) return;
    if (reason.kind === "schedule" && this.#ctx.runs.scheduleGate.isOpen === false) return;
    if (!this.#config.enabled) {
      void this.#recorder.skipped(reason, "disabled");
      return;
    }
    this.#logger.trace("task triggered", { trigger: reason.kind, detail: reason.detail });
    if (this.#watch.hold(reason)) return;
    void this.request({ reason, force: false, retries: true });
  }

  /** What a run reads of this task and tells it back (task-run.ts). */
  #runParts(): RunParts {
    return {
      config: () => this.#config,
      ctx: this.#ctx,
      logger: this.#logger,
      watch: this.#watch,
      driver: this.#driver,
      runState: this.#runState,
      recorder: this.#recorder,
      events: this.#events,
      deleting: () => this.#deleting,
      applied: (inputs) => (this.#lastApplied = inputs),
      failedWith: (code) => (this.#lastErrorCode = code),
      followUp: (request, error) => this.#followUp(request, error),
      recordQueryError: (error, trigger) => this.recordQueryError(error, trigger),
    };
  }

  /** Retries a failed run the daemon started itself (not an API call, whose caller got the error). */
  #followUp(request: RunRequest, error: string | undefined): void {
    if (error === undefined) return this.#retry.succeeded();
    if (!this.#watch.armed || this.#watch.halted || this.#deleting || request.reason.kind === "api" || request.followUp === false) return;
    this.#retry.failed(error);
  }
}
