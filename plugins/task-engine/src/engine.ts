/**
 * @module The task engine: owns the task runtimes and drives them through the run modes
 * (daemon here; once and inspect in one-shot-modes.ts) and leadership changes. The TaskManager
 * face is in task-manager.ts.
 */
import type { CtsConfig, Leadership, Logger, RunOptions, Shutdown, StoredTask, TaskStore } from "../../../core/plugin-api/mod.ts";
import { errorMessage, isPermanentConsulError } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { DamagedTask } from "./damaged-task.ts";
import { retryWhileLocked, stateLocked } from "./locked-start-retry.ts";
import { runInspectMode, runOnceMode, type OneShotParts } from "./one-shot-modes.ts";
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
    this.#store = deps.context.records.store;
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
    if (mode === "once") this.#pass = this.track(runOnceMode(this.#oneShotParts()));
    else if (mode === "inspect") this.#pass = this.track(runInspectMode(this.#oneShotParts()));
    else if (mode === "daemon") {
      this.#unsubscribe = this.#leadership.subscribe((leader) => (leader ? this.#lead() : this.#stepDown()));
      if (this.#leadership.isLeader()) this.#lead();
      const owns = this.context.instance.owns;
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
    this.context.runs.scheduleGate.close();
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
      const damaged = new DamagedTask(record, record.task!, this.#config, this.context.instance.id);
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
          this.track(retryWhileLocked(runtime, () => generation === this.#generation, this.#logger, this.context.signal));
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
      this.context.runs.scheduleGate.open();
    }
  }

  #oneShotParts(): OneShotParts {
    return {
      context: this.context, runOptions: this.#runOptions, shutdown: this.#shutdown, logger: this.#logger, ctrl: this.#ctrl,
      consulWaitMs: this.#oneShotConsulWaitMs, stopped: () => this.#stopped,
    };
  }
}
