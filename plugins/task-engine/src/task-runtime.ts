/**
 * @module One task inside the engine: its driver, its input sources, its buffer period and its
 * serial run queue. A run reads the newest inputs when it starts and is skipped only when the last
 * run succeeded with exactly the same fingerprint (rendered inputs and watched data), unless forced.
 */
import type {
  ApplyResult, Driver, HookReport, InputContext, InputSource, InspectPlan, Logger, RunHookContext, RunObserver, RunRecord, StoredTask,
  TaskConfig, TaskEvent, TaskInputs, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage, isCtsError, isPermanentConsulError } from "../../../core/plugin-api/mod.ts";
import { BufferedTrigger } from "./buffered-trigger.ts";
import { createTaskDriver } from "./task-driver.ts";
import type { EngineContext } from "./engine-context.ts";
import { inputHash } from "./input-hash.ts";
import { InputSlots } from "./input-slots.ts";
import { FollowUpRetry } from "./follow-up-retry.ts";
import { HeldEffects } from "./held-effects.ts";
import { withRetries } from "./retry.ts";
import { HaltedError, missingInputsText, stoppedError } from "./run-guards.ts";
import { RunQueue, type RunRequest } from "./run-queue.ts";
import { RunState } from "./run-state.ts";
import { RunRecorder, unchangedInputs, type OpenRun } from "./run-recorder.ts";
import { endedView, RunCancelled } from "./run-hooks.ts";
import { eventStart, finishEvent, pushEvent } from "./task-event.ts";
import { cleanEvent } from "./clean-record.ts";
import { appliedEnd, inspectRun, type InspectResult } from "./inspect-run.ts";
import { taskStatus } from "./task-status.ts";

/** Applies are never cancelled half-way (a half-written apply is worse than a late stop). */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

export class TaskRuntime {
  #config: TaskConfig;
  readonly #ctx: EngineContext;
  readonly #logger: Logger;
  readonly #slots = new InputSlots();
  readonly #queue: RunQueue<TaskEvent | undefined>;
  #driver: Driver | undefined;
  #sources: InputSource[] = [];
  #sourcesAbort: AbortController | undefined;
  #buffer: BufferedTrigger | undefined;
  #armed = false;
  /** Set once watching stopped (step-down, delete, discard): runs not yet started are skipped. */
  #halted = false;
  #deleting = false;
  readonly #runState: RunState;
  readonly #recorder: RunRecorder;
  #lastErrorCode: string | undefined;
  #events: TaskEvent[];
  /** Set when Consul rejected a query before the first data: no run may use the missing inputs. */
  #inputsRejected: string | undefined;
  /** Set while Consul refuses one of the task's queries after its first data (cleared by new data). */
  #queryRejected: string | undefined;
  /** The inputs of the last successful apply (or of a skip because they were unchanged): what drift checks and destroys render. */
  #lastApplied: TaskInputs | undefined;
  /** Why the running run waits, as its driver says (cleared when the run ends). */
  #waiting: string | undefined;
  /** Retries of a failed run under the engine's retry policy. */
  readonly #retry: FollowUpRetry;
  /** Stored events, run records, listeners and live events: held until a task being created is stored. */
  readonly #effects: HeldEffects;
  /** How long the last driver initialisation took, until a run record reports it. */
  #unreportedInitMs: number | undefined;

  constructor(stored: StoredTask, ctx: EngineContext, events: readonly TaskEvent[] = [], inStore = true) {
    this.#config = stored.config;
    this.#ctx = ctx;
    // Same name as the engine's, as CTS logs task lines under `tasksmanager` with `task_name`.
    this.#logger = ctx.logger.child("", { task_name: stored.config.name });
    // Not in the store yet (a task being created) means its runs must not store it early.
    this.#runState = new RunState(ctx.store, this.#logger, stored, inStore);
    this.#events = events.slice(0, ctx.eventLimit);
    this.#effects = new HeldEffects(!inStore);
    this.#recorder = new RunRecorder(() => this.#config.name, ctx, this.#logger, this.#effects);
    this.#queue = new RunQueue((request) => this.#execute(request));
    this.#retry = new FollowUpRetry(ctx.retryPolicy, this.#logger, ({ reason, previousError }) =>
      void this.request({ reason, force: false, retries: true, previousError }));
  }

  get name(): string {
    return this.#config.name;
  }
  get config(): TaskConfig {
    return this.#config;
  }
  get events(): readonly TaskEvent[] {
    return this.#events;
  }
  get running(): boolean {
    return this.#queue.running;
  }
  get armed(): boolean {
    return this.#armed;
  }
  get deleting(): boolean {
    return this.#deleting;
  }
  get waiting(): string | undefined {
    return this.#waiting;
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
    return this.#slots.missing().length > 0 ? undefined : this.#slots.current();
  }
  /** The prepared driver (after `prepare`). */
  get driver(): Driver | undefined {
    return this.#driver;
  }

  /** Runs `work` between runs (drift check, destroy, update): no run overlaps it. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.exclusive(work);
  }

  /** Records an event for work outside a run (a destroy); `error` undefined means success. */
  recordEvent(reason: TriggerReason, startedAt: Date, outcome: { error?: string; url?: string }): Promise<TaskEvent> {
    const start = { ...eventStart(this.#config, reason, this.#ctx), startedAt };
    return this.#record(finishEvent(start, outcome));
  }

  /** The CtsError code of the last failed run (e.g. CTS_ERR_STATE_LOCKED), so the engine can tell why. */
  get lastErrorCode(): string | undefined {
    return this.#lastErrorCode;
  }

  /** Records a failed event for a failure outside a run (the driver's init), so status and events show it. */
  recordFailure(reason: TriggerReason, error: unknown): Promise<TaskEvent> {
    const start = { task: this.#config, trigger: reason, instanceId: this.#ctx.instanceId, startedAt: new Date() };
    return this.#record(finishEvent(start, { error: errorMessage(error) }));
  }

  /** Creates the driver (again when `reinit`) and runs its `init`. */
  async prepare(reinit = false): Promise<void> {
    if (this.#driver && !reinit) return;
    const previous = this.#driver;
    this.#driver = undefined;
    await previous?.dispose?.();
    const started = Date.now();
    const driver = await createTaskDriver(this.#config, this.#ctx, {
      waiting: (reason) => (this.#waiting = reason),
      newerRunQueued: () => this.#queue.queued,
    });
    await driver.init(this.#ctx.signal);
    this.#unreportedInitMs = Date.now() - started;
    this.#driver = driver;
  }

  /** Throws what the driver's init found wrong but keeps for the first run (an invalid module: CTS refuses its create). */
  checkDriver(): void {
    this.#driver?.check?.();
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
    await this.#driver?.discard?.(this.#ctx.signal);
    await this.dispose();
  }

  /** The last initialisation's time, once: the run that follows it reports it. */
  #takeInitMs(): number | undefined {
    const ms = this.#unreportedInitMs;
    this.#unreportedInitMs = undefined;
    return ms;
  }

  /** Starts the condition and module inputs; resolves once each published its first value. */
  async startSources(): Promise<void> {
    if (this.#sourcesAbort) return;
    const task = this.#config;
    const condition = this.#ctx.conditions.get(task.condition.type);
    if (!condition) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot start task "${task.name}": no condition type "${task.condition.type}" is registered`);
    }
    if (this.#ctx.signal.aborted) throw stoppedError(task.name);
    const sources = [condition.create(task.condition as Record<string, unknown>, task.name, task)];
    for (const input of task.module_input) {
      const factory = this.#ctx.moduleInputs.get(input.type);
      if (!factory) {
        throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot start task "${task.name}": no module_input type "${input.type}" is registered`);
      }
      sources.push(factory.create(input as unknown as Record<string, unknown>, task.name, task));
    }
    const buffer = task.buffer_period;
    if (!condition.unbuffered && buffer.enabled && buffer.min > 0) {
      this.#buffer = new BufferedTrigger(buffer.min, buffer.max, (reason) => {
        if (this.#armed) void this.request({ reason, force: false, retries: true });
      });
    }
    const abort = new AbortController();
    this.#sourcesAbort = abort;
    this.#halted = false;
    // Kernel stop ends sources too, so a start that waits for an unreachable Consul returns.
    const onStop = () => abort.abort();
    this.#ctx.signal.addEventListener("abort", onStop, { once: true });
    abort.signal.addEventListener("abort", () => this.#ctx.signal.removeEventListener("abort", onStop), { once: true });
    this.#sources = sources;
    this.#slots.expect(sources);
    try {
      await Promise.all(sources.map((source, index) => source.start(this.#inputContext(index, abort.signal))));
    } catch (error) {
      if (isPermanentConsulError(error)) this.#inputsRejected = errorMessage(error);
      this.stopWatching();
      throw error;
    }
    // A stop ends the sources' start early, with their first data maybe still missing: nothing may run on that.
    if (abort.signal.aborted) throw stoppedError(task.name);
  }

  /** From now on condition triggers queue runs (before this, first values only fill inputs). */
  arm(): void {
    this.#armed = true;
  }

  /** Stops sources, drops a buffered or queued run; a run in progress finishes. */
  stopWatching(): void {
    this.#armed = false;
    this.#halted = true;
    this.#sourcesAbort?.abort();
    this.#sourcesAbort = undefined;
    for (const source of this.#sources) {
      try {
        source.stop();
      } catch (error) {
        this.#logger.warn("input source failed to stop", { error: errorMessage(error) });
      }
    }
    this.#sources = [];
    this.#buffer?.cancel();
    this.#buffer = undefined;
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
    const missing = this.#slots.missing();
    if (missing.length > 0) {
      throw new CtsError("CTS_ERR_TASK", `Cannot plan task "${this.#config.name}": ${missingInputsText(missing)}`);
    }
    await this.prepare();
    const driver = this.#driver!;
    await driver.render(this.#slots.current(), this.#ctx.signal);
    return driver.plan(this.#ctx.signal, observer);
  }

  /** Plans like `plan`, kept as an inspection's run record (its plan, resources and timing). */
  inspect(reason: TriggerReason): Promise<InspectResult> {
    const change = this.#slots.missing().length === 0 ? this.#recorder.compare(this.#slots.current()).change : {};
    return inspectRun(this.#recorder, reason, change, (observer) => this.plan(observer), () => this.#takeInitMs());
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
    await this.#buffer?.settled();
    await this.#queue.whenIdle();
  }

  async dispose(): Promise<void> {
    const driver = this.#driver;
    this.#driver = undefined;
    await driver?.dispose?.();
  }

  /** Records a permanent Consul error of the task's queries as a failed event (the task's status shows it). */
  async recordQueryError(error: unknown, trigger: TriggerReason): Promise<TaskEvent> {
    const message = errorMessage(error);
    this.#logger.error("Consul rejected a query of the task", { error: message });
    return this.recordFailure(trigger, error);
  }

  #inputContext(index: number, signal: AbortSignal): InputContext {
    return {
      watcher: this.#ctx.watcher,
      logger: this.#logger,
      signal,
      publish: (variable, value) => {
        if (signal.aborted) return;
        this.#queryRejected = undefined; // data arrived: the query answers again
        this.#slots.publish(index, variable, value);
      },
      observe: (value) => {
        if (signal.aborted) return;
        this.#queryRejected = undefined;
        this.#slots.observe(index, value);
      },
      // Only the condition (source 0) decides when the task runs; module inputs only supply data.
      trigger: (reason) => {
        if (index === 0 && !signal.aborted) this.#triggered(reason);
      },
      unchanged: (reason) => {
        if (index !== 0 || signal.aborted || !this.#armed || this.#deleting) return;
        void this.#recorder.skipped(reason, this.#config.enabled ? "unchanged_inputs" : "disabled", unchangedInputs(this.#slots.current()));
      },
      reportError: (error) => {
        if (signal.aborted) return;
        this.#queryRejected = errorMessage(error);
        void this.recordQueryError(error, { kind: "dependency", detail: "Consul rejected a query" });
      },
    };
  }

  #triggered(reason: TriggerReason): void {
    if (!this.#armed || this.#deleting) return;
    if (reason.kind === "schedule" && this.#ctx.scheduleGate?.isOpen === false) return;
    if (!this.#config.enabled) {
      void this.#recorder.skipped(reason, "disabled");
      return;
    }
    this.#logger.trace("task triggered", { trigger: reason.kind, detail: reason.detail });
    if (this.#buffer) return this.#buffer.poke(reason);
    void this.request({ reason, force: false, retries: true });
  }

  async #execute(request: RunRequest): Promise<TaskEvent | undefined> {
    const task = this.#config;
    if (this.#deleting || !task.enabled) return undefined;
    // Shared cluster mode: another instance runs it (the lock is released only after this run ends).
    if (this.#ctx.owns && !this.#ctx.owns(task.name)) return undefined;
    const start = eventStart(task, request.reason, this.#ctx);
    if (this.#inputsRejected !== undefined) {
      const error = `Cannot run task "${task.name}": its Consul data never arrived: ${this.#inputsRejected}`;
      return this.#recordFailed(request.reason, finishEvent(start, { error }), error);
    }
    const missing = this.#slots.missing();
    if (missing.length > 0) {
      // A run on an input not received yet could render it empty and destroy what the module manages.
      const error = `Cannot start the run: ${missingInputsText(missing)}`;
      this.#logger.warn("run not started", { trigger: request.reason.kind, error });
      // A forced run (-once, run=now) was asked for explicitly: it fails visibly instead of vanishing.
      if (request.force) return this.#recordFailed(request.reason, finishEvent(start, { error }), error);
      await this.#recorder.skipped(request.reason, "input_missing");
      return undefined;
    }
    const inputs = this.#slots.current();
    const fingerprint = await inputHash(this.#slots.fingerprinted(inputs));
    if (!request.force && this.#runState.unchanged(fingerprint)) {
      // CTS records "no changes" for scheduled runs; a new leader records that it skipped the apply.
      if (request.reason.kind === "schedule" || request.reason.kind === "leader") {
        this.#logger.info(request.reason.kind === "schedule"
          ? "scheduled task triggered but had no changes" // CTS's wording (tasks_manager.go)
          : "inputs unchanged since the last apply, apply skipped", { trigger: request.reason.kind });
        this.#lastApplied = inputs;
        const event = await this.#record(finishEvent(start, { skipped: true }));
        await this.#recorder.skipped(request.reason, "unchanged_inputs", unchangedInputs(inputs), event.id);
        return event;
      }
      this.#lastApplied = inputs;
      this.#logger.debug("inputs unchanged since the last apply, run dropped", { trigger: request.reason.kind });
      await this.#recorder.skipped(request.reason, "unchanged_inputs", unchangedInputs(inputs));
      return undefined;
    }
    const pending = this.#recorder.compare(inputs);
    let open: OpenRun | undefined;
    let applied: ApplyResult | undefined;
    // CTS's wording (tasks_manager.go), which operators alert on; our fields follow.
    this.#logger.info("executing task", { trigger: request.reason.kind, ...detail(request.reason) });
    let error: string | undefined;
    let url: string | undefined;
    let hooked: readonly HookReport[] = [];
    try {
      await this.#ctx.limiter.run(async () => {
        // Waiting for a slot can outlast leadership or the process; a run that has not started yet is skipped.
        if ((this.#halted || this.#ctx.signal.aborted) && request.reason.kind !== "api") throw new HaltedError();
        const run = open = this.#recorder.begin(request.reason, pending, request.previousError !== undefined ? { previousError: request.previousError } : {});
        // Before anything is rendered or stored: a veto leaves the task as it was (run-hooks.ts).
        hooked = await this.#ctx.runHooks?.before(this.#hookContext(run.record)) ?? [];
        // Stored before anything is applied: a crash from here on leaves "started", never a success.
        await this.#runState.record(task, fingerprint, "started");
        await this.prepare();
        const driver = this.#driver!;
        await driver.render(inputs, this.#ctx.signal);
        applied = (await withRetries(() => driver.apply(NEVER_ABORTED, run.observer), request.retries ? 2 : 0, this.#ctx.signal, (retry, cause) => {
          this.#logger.warn("apply failed, retrying", { retry, error: errorMessage(cause) });
          run.observer.output("apply", `\n--- apply failed, retry ${retry} of 2 ---\n`);
        })) || undefined;
        url = applied?.url;
        // Not applied, and not the task's fault (a run that made way for newer inputs): failed, never retried.
        if (applied?.unapplied !== undefined) error = applied.unapplied;
      });
    } catch (cause) {
      if (cause instanceof HaltedError) return undefined;
      if (cause instanceof RunCancelled) return this.#cancelled(open!, cause);
      error = errorMessage(cause);
      url = failureUrl(cause);
      this.#lastErrorCode = isCtsError(cause) ? cause.code : undefined;
      this.#logger.error("error running task", { error });
    }
    this.#waiting = undefined;
    await this.#runState.record(task, fingerprint, error === undefined ? "succeeded" : "failed", open?.record.id);
    if (error === undefined) this.#lastApplied = inputs;
    if (error === undefined) this.#logger.info("task completed");
    const previousError = request.previousError !== undefined ? { previousError: request.previousError } : {};
    const run = open ?? this.#recorder.begin(request.reason, pending, previousError);
    const afterHooks = await this.#ctx.runHooks?.after(this.#hookContext(endedView(run.record, error, applied?.summary)), hooked);
    // A retry that fails again is one more attempt at the same change: like CTS's quick retries inside
    // a run, it adds no CTS event (the task stays "errored", not "critical"); its run record tells.
    const attemptOnly = error !== undefined && request.reason.kind === "retry" && request.followUp !== false;
    const finished = finishEvent(start, { error, ...(url ? { url } : {}) });
    const event = attemptOnly ? finished : await this.#record(finished);
    await run.end({
      ...appliedEnd(attemptOnly ? undefined : event.id, error, applied, this.#takeInitMs()),
      ...(afterHooks ? { extra: afterHooks } : {}),
    });
    // A run on data received before Consul began refusing a query must not hide that refusal: the
    // task still cannot see changes, so its status stays failed until the query answers again.
    if (error === undefined && this.#queryRejected !== undefined) await this.recordQueryError(new Error(this.#queryRejected), request.reason);
    this.#followUp(request, error);
    return event;
  }

  /** Retries a failed run the daemon started itself (not an API call, whose caller got the error). */
  #followUp(request: RunRequest, error: string | undefined): void {
    if (error === undefined) return this.#retry.succeeded();
    if (!this.#armed || this.#halted || this.#deleting || request.reason.kind === "api" || request.followUp === false) return;
    this.#retry.failed(error);
  }

  /** What run hooks see of this task's run. */
  #hookContext(run: RunRecord): RunHookContext {
    return { task: this.#config, run, workingDir: this.#ctx.fileSystem.resolve(this.#config.working_dir), signal: this.#ctx.signal };
  }

  /** A run a hook vetoed: a record of its own (no CTS event, nothing stored as applied or failed). */
  async #cancelled(open: OpenRun, cancel: RunCancelled): Promise<undefined> {
    this.#logger.warn("run cancelled by a hook before the apply", { error: cancel.message });
    await open.end({ outcome: "cancelled", error: cancel.message, extra: cancel.reports.length > 0 ? { hooks: cancel.reports } : {} });
    return undefined;
  }

  /** A run that failed before the driver ran: its CTS event and its history record. */
  async #recordFailed(trigger: TriggerReason, failed: TaskEvent, error: string): Promise<TaskEvent> {
    const event = await this.#record(failed);
    await this.#recorder.begin(trigger).end({ outcome: "failed", error, eventId: event.id });
    return event;
  }

  async #record(recorded: TaskEvent): Promise<TaskEvent> {
    const event = cleanEvent(recorded, this.#ctx.secrets);
    this.#events = pushEvent(this.#events, event, this.#ctx.eventLimit);
    this.#recorder.noteStatus(taskStatus(this.#events, this.#ctx.eventLimit), this.#config.enabled);
    await this.#effects.run(async () => {
      for (const listener of this.#ctx.eventListeners) {
        // A listener (metrics) must never break a run.
        try {
          listener(event);
        } catch (error) {
          this.#logger.error("event listener failed", { error: errorMessage(error) });
        }
      }
      try {
        await this.#ctx.store.addEvent(event, this.#ctx.eventLimit);
      } catch (error) {
        this.#logger.error("cannot store task event", { error: errorMessage(error) });
      }
    });
    return event;
  }
}

/** Where a failed run can be seen, when the driver's error says (DriverRunFailure). */
function failureUrl(cause: unknown): string | undefined {
  const url = (cause as { url?: unknown } | undefined)?.url;
  return typeof url === "string" && url !== "" ? url : undefined;
}

function detail(reason: TriggerReason): Record<string, string> {
  return reason.detail ? { detail: reason.detail } : {};
}
