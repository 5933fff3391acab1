/**
 * @module The task engine: owns the task runtimes and drives them through the run modes
 * (daemon, once, inspect) and leadership changes. The TaskManager face is in task-manager.ts.
 */
import type {
  CtsConfig, Leadership, Logger, RunOptions, Shutdown, StoredTask, TaskConfig, TaskStore,
} from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage, formatGoDuration, isCtsError, isPermanentConsulError, sleep } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { lockedRetryDelayMs } from "./retry.ts";
import { DamagedTask } from "./damaged-task.ts";
import { loadStoredTasks, loadStoredTasksRetrying } from "./stored-tasks.ts";
import { RunPruner } from "./run-pruner.ts";
import { TaskRuntime } from "./task-runtime.ts";

export interface EngineDeps {
  readonly context: EngineContext;
  readonly runOptions: RunOptions;
  readonly leadership: Leadership;
  readonly shutdown: Shutdown;
}

export interface EngineStartOptions {
  /** How long -once/-inspect wait for a task's Consul data (see engine-options.ts). */
  readonly oneShotConsulWaitMs: number;
}

export class Engine {
  readonly tasks = new Map<string, TaskRuntime>();
  /** Stored tasks whose record cannot be decoded: listed as errored, never run. */
  readonly damaged = new Map<string, DamagedTask>();
  readonly context: EngineContext;
  readonly #runOptions: RunOptions;
  readonly #leadership: Leadership;
  readonly #shutdown: Shutdown;
  readonly #logger: Logger;
  /** CTS's controller lines (`ctrl: executing all tasks once through`), which runbooks match. */
  readonly #ctrl: Logger;
  readonly #config: CtsConfig;
  readonly #store: TaskStore;
  /** Bumped on every leadership change, so a stale pass stops at its next step. */
  #generation = 0;
  #active = false;
  #stopped = false;
  #pass: Promise<void> = Promise.resolve();
  #background = new Set<Promise<unknown>>();
  #unsubscribe: (() => void) | undefined;
  #oneShotConsulWaitMs = 60_000;
  /** Drops run records past the retention while tasks are quiet (daemon mode). */
  #pruner: RunPruner | undefined;

  constructor(deps: EngineDeps) {
    this.context = deps.context;
    this.#runOptions = deps.runOptions;
    this.#leadership = deps.leadership;
    this.#shutdown = deps.shutdown;
    this.#logger = deps.context.logger;
    this.#ctrl = this.#logger.named?.("ctrl") ?? this.#logger;
    this.#config = deps.context.config;
    this.#store = deps.context.store;
  }

  /** True while this instance leads and watches (API mutations are allowed). */
  get active(): boolean {
    return this.#active;
  }

  get leadership(): Leadership {
    return this.#leadership;
  }

  /** Starts the mode's work in the background (the once pass can outlast a start hook's timeout). */
  start(options?: EngineStartOptions): void {
    if (options) this.#oneShotConsulWaitMs = options.oneShotConsulWaitMs;
    const mode = this.#runOptions.mode;
    if (mode === "once") this.#pass = this.track(this.#runOnceMode());
    else if (mode === "inspect") this.#pass = this.track(this.#runInspectMode());
    else if (mode === "daemon") {
      this.#unsubscribe = this.#leadership.subscribe((leader) => (leader ? this.#lead() : this.#stepDown()));
      if (this.#leadership.isLeader()) this.#lead();
      const owns = this.context.owns;
      this.#pruner = new RunPruner(this.context, () => (this.#active ? [...this.tasks.keys()].filter((name) => owns?.(name) ?? true) : []));
      this.#pruner.start();
    }
  }

  /** Stops watching, lets running applies finish, disposes drivers. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#stepDown();
    await Promise.allSettled([...this.#background, this.#pruner?.stop()]);
  }

  /** Resolves when no pass, buffered change, queued or running run is left. */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [this.#pass, ...this.#background, ...[...this.tasks.values()].map((task) => task.whenIdle())];
      await Promise.allSettled(pending);
      const busy = [...this.tasks.values()].some((task) => task.running) || this.#background.size > 0;
      if (!busy) return;
    }
  }

  /** Keeps `work` visible to idle() and stop() until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#background.add(work);
    const forget = () => this.#background.delete(work);
    work.then(forget, forget);
    return work;
  }

  #lead(): void {
    if (this.#active || this.#stopped) return;
    this.#active = true;
    const generation = ++this.#generation;
    this.context.scheduleGate?.close();
    const ha = this.#config.high_availability !== undefined;
    this.#ctrl.info("executing all tasks once through");
    this.#pass = this.track(this.#leaderPass(generation, ha));
  }

  #stepDown(): void {
    if (!this.#active) return;
    this.#active = false;
    this.#generation++;
    const runtimes = [...this.tasks.values()];
    this.tasks.clear();
    this.damaged.clear();
    for (const runtime of runtimes) runtime.stopWatching();
    // Running applies finish on their own; their drivers are released afterwards.
    for (const runtime of runtimes) this.track(runtime.whenIdle().then(() => runtime.dispose()));
  }

  async #leaderPass(generation: number, allowFail: boolean): Promise<void> {
    const loaded = await loadStoredTasksRetrying(
      () => loadStoredTasks(this.#store, this.#config, this.#runOptions.resetStorage), this.#logger,
      () => generation === this.#generation, this.context.signal,
    );
    if (!loaded) return;
    const stored = loaded.tasks;
    for (const record of loaded.damaged) {
      const damaged = new DamagedTask(record, record.task!, this.#config, this.context.instanceId);
      this.damaged.set(damaged.name, damaged);
      this.#logger.error("task cannot run: its stored record is damaged; other tasks go on", { task_name: damaged.name, key: record.key });
    }
    // Every stored task is known to the API at once; the pass then prepares and runs them in order.
    const runtimes: [StoredTask, TaskRuntime][] = [];
    for (const task of stored) {
      const events = await this.#store.listEvents(task.config.name).catch(() => []);
      if (generation !== this.#generation) return;
      const runtime = new TaskRuntime(task, this.context, events);
      this.tasks.set(task.config.name, runtime);
      runtimes.push([task, runtime]);
    }
    for (const [task, runtime] of runtimes) {
      if (generation !== this.#generation) return;
      try {
        // CTS's order: this line, then the driver's start-up lines, then the run's.
        this.#ctrl.info("running task once", { task_name: task.config.name });
        await runtime.prepare();
        if (generation === this.#generation) await runtime.startSources();
        if (generation !== this.#generation) {
          // Stepped down meanwhile: the step-down already let go of this runtime; undo what we started.
          runtime.stopWatching();
          await runtime.dispose();
          return;
        }
        runtime.arm();
        if (!task.config.enabled) continue;
        const event = await runtime.request({ reason: { kind: allowFail ? "leader" : "startup" }, force: false, retries: false });
        if (event && !event.success) throw new Error(event.error?.message ?? "apply failed");
        if (!allowFail) this.#ctrl.info("task completed", { task_name: task.config.name });
      } catch (error) {
        // Stepped down or stopping while the task waited for its data: it did not run, nothing failed.
        if (generation !== this.#generation) return;
        if (isPermanentConsulError(error)) {
          // Beyond CTS (which exits): one task's bad query (unknown datacenter, bad filter) must not
          // take the others down. The task shows as errored until it is re-created or the daemon restarts.
          await runtime.recordQueryError(error, { kind: allowFail ? "leader" : "startup" });
          this.#logger.error("task cannot start: Consul rejected its query; other tasks go on", {
            task_name: task.config.name, error: errorMessage(error),
          });
          continue;
        }
        this.#logger.error("task failed in the start-up run", { task_name: task.config.name, error: errorMessage(error) });
        if (stateLocked(error, runtime)) {
          // Someone else's lock (a crashed run's, until Consul drops it; a hand-run apply) is not a
          // broken task: the daemon keeps going and retries this task in the background, until it works.
          runtime.cancelRetry();
          if (!runtime.lastErrorCode) await runtime.recordFailure({ kind: allowFail ? "leader" : "startup" }, error);
          this.track(this.#retryWhileLocked(generation, runtime));
          continue;
        }
        if (!allowFail) {
          // CTS: any once-phase error ends the daemon with exit code 11.
          this.#shutdown.requestExit(11, `Cannot run task "${task.config.name}" at start-up: ${errorMessage(error)}`);
          return;
        }
      }
    }
    if (generation === this.#generation) {
      this.#ctrl.info(allowFail ? "attempted to run all tasks once" : "all tasks completed once");
      this.#logger.info("all tasks ran once; watching for changes");
      this.context.scheduleGate?.open();
    }
  }

  /** Start-up run retries, with backoff, of a task whose state lock stayed held; each is an event. */
  async #retryWhileLocked(generation: number, runtime: TaskRuntime): Promise<void> {
    const { signal } = this.context;
    for (let retry = 1; ; retry++) {
      const delay = lockedRetryDelayMs(retry);
      this.#logger.warn("state lock still held, the start-up run will be retried", {
        task_name: runtime.name, retry, in: formatGoDuration(delay),
      });
      await sleep(delay, signal);
      if (generation !== this.#generation || signal.aborted) return;
      const reason = { kind: "retry", detail: `start-up run, retry ${retry}: state locked` } as const;
      try {
        try {
          await runtime.prepare();
        } catch (error) {
          await runtime.recordFailure(reason, error);
          throw error;
        }
        if (generation !== this.#generation) return;
        await runtime.startSources();
        runtime.arm();
        const event = await runtime.request({ reason, force: false, retries: false, followUp: false });
        if (!event || event.success) {
          this.#logger.info("start-up run completed after the state lock was released", { task_name: runtime.name, retry });
          return;
        }
        if (runtime.lastErrorCode !== "CTS_ERR_STATE_LOCKED") return;
      } catch (error) {
        if (!stateLocked(error, runtime)) {
          this.#logger.error("start-up run retry failed", { task_name: runtime.name, retry, error: errorMessage(error) });
          return;
        }
      }
    }
  }

  /** -once/-inspect: the task's Consul data must arrive in time; the daemon would keep retrying. */
  async #startSourcesWithin(runtime: TaskRuntime, taskName: string): Promise<void> {
    const ms = this.#oneShotConsulWaitMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = runtime.startSources();
    // The caller stops the runtime on timeout, which ends this start; its outcome is then moot.
    started.catch(() => {});
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const { consul } = this.context;
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

  async #runOnceMode(): Promise<void> {
    if (this.#config.tasks.length > 0) this.#ctrl.info("executing all tasks once through");
    for (const config of this.#config.tasks) {
      if (this.#stopping(config.name)) return;
      const runtime = new TaskRuntime({ config }, this.context);
      try {
        await this.#store.putTask({ config });
        await runtime.prepare();
        if (!config.enabled) continue;
        // CTS's once-mode lines (controller/once.go): this, the run's own lines, then `task completed`.
        this.#ctrl.info("running task once", { task_name: config.name });
        await this.#startSourcesWithin(runtime, config.name);
        const event = await runtime.request({ reason: { kind: "startup", detail: "once" }, force: true, retries: false });
        if (event && !event.success) throw new Error(event.error?.message ?? "apply failed");
      } catch (error) {
        if (this.#stopping(config.name)) return;
        this.#logger.error("task failed", { task_name: config.name, error: errorMessage(error) });
        this.#shutdown.requestExit(11, `Cannot run task "${config.name}": ${errorMessage(error)}`);
        return;
      } finally {
        runtime.stopWatching();
        await runtime.dispose();
      }
    }
    this.#ctrl.info("all tasks completed once");
    this.#shutdown.requestExit(0, "all tasks completed once");
  }

  /** A stop (signal) ended the pass: the signal's exit stands, and no later task may start. */
  #stopping(taskName: string): boolean {
    if (!this.#stopped && !this.context.signal.aborted) return false;
    this.#logger.info("stopped before the task ran", { task_name: taskName });
    return true;
  }

  async #runInspectMode(): Promise<void> {
    const wanted = this.#runOptions.inspectTasks;
    const unknown = wanted.filter((name) => !this.#config.tasks.some((task) => task.name === name));
    if (unknown.length > 0) {
      this.#shutdown.requestExit(15, `Cannot inspect task "${unknown[0]}": no task with that name is configured`);
      return;
    }
    const tasks: TaskConfig[] = this.#config.tasks.filter((task) => wanted.length === 0 || wanted.includes(task.name));
    for (const config of tasks) {
      if (this.#stopping(config.name)) return;
      const runtime = new TaskRuntime({ config }, this.context);
      try {
        await this.#startSourcesWithin(runtime, config.name);
        const plan = await runtime.plan();
        this.#logger.info("inspection results", { task_name: config.name, plan: plan.plan, ...(plan.url ? { url: plan.url } : {}) });
      } catch (error) {
        if (this.#stopping(config.name)) return;
        this.#logger.error("inspection failed", { task_name: config.name, error: errorMessage(error) });
        this.#shutdown.requestExit(11, `Cannot inspect task "${config.name}": ${errorMessage(error)}`);
        return;
      } finally {
        runtime.stopWatching();
        await runtime.dispose();
      }
    }
    this.#shutdown.requestExit(0, "inspection complete");
  }
}

/** The task could not get its state lock within the driver's wait (CTS_ERR_STATE_LOCKED). */
function stateLocked(error: unknown, runtime: TaskRuntime): boolean {
  return (isCtsError(error) && error.code === "CTS_ERR_STATE_LOCKED") || runtime.lastErrorCode === "CTS_ERR_STATE_LOCKED";
}
