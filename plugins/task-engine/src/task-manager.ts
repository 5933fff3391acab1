/**
 * @module The TaskManager the HTTP API, the CLI and HA drive: CTS's task lifecycle semantics
 * (create with run=now/inspect, enable/disable, deferred delete, run now) over the engine.
 * Every mutation goes through the TaskStore; create and delete are serialised like CTS's lock.
 */
import type {
  DamagedRecord, DeleteOptions, InspectPlan, RunPage, RunQuery, RunRecord, RunRequest, TaskConfig, TaskEvent, TaskManager, TaskOutputs,
  TaskState, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage, isPermanentConsulError } from "../../../core/plugin-api/mod.ts";
import type { Engine } from "./engine.ts";
import { TaskRuntime } from "./task-runtime.ts";
import { taskStatus } from "./task-status.ts";
import { firstMissingDirectory, removeCreatedDirectory } from "./created-directory.ts";
import { readOutputs, readRun, readRuns } from "./run-history-reads.ts";
import type { RunRecorder } from "./run-recorder.ts";
import type { DriftStates } from "./drift-service.ts";
import { destroyTask, planTaskDestroy } from "./task-destroy.ts";
import { updateTask } from "./task-update.ts";

export class EngineTaskManager implements TaskManager {
  readonly #engine: Engine;
  readonly #drift: DriftStates;
  #lock: Promise<unknown> = Promise.resolve();

  constructor(engine: Engine, drift: DriftStates) {
    this.#engine = engine;
    this.#drift = drift;
  }

  list(): TaskState[] {
    return [...[...this.#engine.tasks.values()].map((runtime) => this.#state(runtime)), ...[...this.#engine.damaged.values()].map((task) => task.state())];
  }

  get(name: string): TaskState | undefined {
    const runtime = this.#engine.tasks.get(name);
    return runtime ? this.#state(runtime) : this.#engine.damaged.get(name)?.state();
  }

  damagedRecords(): readonly DamagedRecord[] {
    return this.#engine.context.records.store.damagedRecords?.() ?? [];
  }

  create(task: TaskConfig, run?: RunRequest): Promise<{ task: TaskConfig; plan?: InspectPlan; event?: TaskEvent }> {
    return this.#serial(async () => {
      this.#requireLeader(`create task "${task.name}"`);
      if (this.#engine.tasks.has(task.name) || this.#engine.damaged.has(task.name)) {
        throw new CtsError("CTS_ERR_CONFLICT", `Cannot create task "${task.name}": a task with that name already exists`);
      }
      // Not in the store until the create succeeds: a rejected create leaves nothing (held-effects.ts),
      // and no directory it made (created-directory.ts).
      const context = this.#engine.context;
      const runtime = new TaskRuntime({ config: task }, context, [], false);
      const madeDirectory = await firstMissingDirectory(context.fileSystem, context.fileSystem.resolve(task.working_dir));
      let abandoned = false;
      const abandon = async () => {
        if (abandoned) return;
        abandoned = true;
        await runtime.abandon();
        await removeCreatedDirectory(context.fileSystem, madeDirectory, context.logger);
      };
      try {
        await runtime.prepare();
        await runtime.startSources();
        // CTS validates the module when it creates a task: an invalid one is refused, not kept. After
        // the task's queries answered, as the driver keeps it (a query Consul refuses is said first).
        runtime.checkDriver();
        if (run === "inspect") {
          if (!task.enabled) return { task, plan: { changesPresent: false, plan: `inspection skipped: task "${task.name}" is disabled` } };
          return { task, plan: await this.#inspect(runtime) };
        }
        let event: TaskEvent | undefined;
        if (run === "now" && task.enabled) {
          event = await runtime.request({ reason: { kind: "api", detail: "create run=now" }, force: true, retries: false });
          if (event && !event.success) {
            throw new CtsError("CTS_ERR_TASK", `Cannot create task "${task.name}": the apply failed: ${event.error?.message}`);
          }
        }
        this.#requireLeader(`create task "${task.name}"`);
        await context.records.store.putTask(runtime.runState.stored(task));
        if (this.#engine.active) {
          this.#engine.tasks.set(task.name, runtime);
          runtime.arm();
          context.records.daemonEvents.publish({ type: "task.created", task: task.name });
          await runtime.commit();
          runtime.recorder.noteStatus(taskStatus(runtime.events, context.records.eventLimit), task.enabled);
        } else {
          // Stepped down while storing: the task is stored, so the next leader loads and runs it.
          await runtime.commit();
          await discard(runtime);
        }
        return event ? { task, event } : { task };
      } catch (error) {
        await abandon();
        if (isPermanentConsulError(error)) {
          // The task's own settings (datacenter, namespace, filter) make Consul refuse: the request is at fault.
          const message = `Cannot create task "${task.name}": Consul rejected its query: ${errorMessage(error)}`;
          throw new CtsError("CTS_ERR_BAD_REQUEST", message, { cause: error });
        }
        throw error;
      } finally {
        // A dry run leaves nothing either (CTS leaves its working directory and workspace behind).
        if (run === "inspect") await abandon();
      }
    });
  }

  async setEnabled(name: string, enabled: boolean, run?: RunRequest): Promise<{ plan?: InspectPlan; runId?: string }> {
    const runtime = this.#find(name, `update task "${name}"`);
    if (runtime.running) {
      throw new CtsError("CTS_ERR_CONFLICT", `Cannot update task "${name}": the task is active and cannot be updated`);
    }
    const config: TaskConfig = { ...runtime.config, enabled };
    if (run === "inspect") {
      if (!enabled) return { plan: { changesPresent: false, plan: `inspection skipped: task "${name}" would be disabled` } };
      const inspected = await runtime.inspect({ kind: "api", detail: "inspect" });
      return { plan: inspected.plan, runId: inspected.runId };
    }
    const wasEnabled = runtime.config.enabled;
    await this.#engine.context.records.store.putTask(runtime.runState.stored(config));
    runtime.setConfig(config);
    runtime.recorder.noteStatus(taskStatus(runtime.events, this.#engine.context.records.eventLimit), enabled);
    // CTS regenerates and re-initialises the workspace when a disabled task is enabled.
    if (enabled && !wasEnabled) await runtime.prepare(true);
    if (run === "now" && enabled) {
      const event = await runtime.request({ reason: { kind: "api", detail: "enable run=now" }, force: true, retries: false });
      if (event && !event.success) {
        throw new CtsError("CTS_ERR_TASK", `Cannot run task "${name}": ${event.error?.message}`);
      }
    }
    return {};
  }

  delete(name: string, options: DeleteOptions = {}): Promise<void> {
    // A damaged stored task has nothing to destroy with: its config cannot be read.
    if (this.#engine.active && this.#engine.damaged.has(name)) return this.#deleteDamaged(name);
    const runtime = this.#find(name, `delete task "${name}"`);
    if (runtime.deleting) return Promise.resolve();
    if (options.destroy) {
      // Beyond CTS: the caller waits for the destroy; only a destroyed task is removed.
      return this.#engine.track(destroyTask(runtime, this.#engine.context)).then(() => this.#remove(name, runtime));
    }
    runtime.markDeleting();
    // Removal waits for a run in progress; the API answers 202 before that.
    void this.#remove(name, runtime).catch(() => undefined);
    return Promise.resolve();
  }

  planDestroy(name: string): Promise<InspectPlan> {
    return planTaskDestroy(this.#find(name, `plan the destroy of task "${name}"`), this.#engine.context);
  }

  update(name: string, config: TaskConfig, run?: RunRequest): Promise<{ plan?: InspectPlan; event?: TaskEvent }> {
    return this.#serial(async () => {
      const runtime = this.#find(name, `update task "${name}"`);
      const { plan, event } = await updateTask(this.#engine, runtime, config, run, { changed: (task) => this.#drift.forget(task) });
      return { ...(plan ? { plan } : {}), ...(event ? { event } : {}) };
    });
  }

  /** Removes a task marked for deletion once its run in progress ended (CTS's deferred delete). */
  #remove(name: string, runtime: TaskRuntime): Promise<void> {
    return this.#engine.track(this.#serial(async () => {
      await runtime.whenIdle();
      if (this.#engine.tasks.get(name) === runtime) this.#engine.tasks.delete(name);
      await this.#engine.context.records.store.deleteTask(name);
      this.#engine.context.records.daemonEvents.publish({ type: "task.deleted", task: name });
      this.#drift.forget(name);
      await runtime.dispose();
    })).catch((error) => {
      this.#engine.context.logger.error("cannot delete task", { task_name: name, error: String(error) });
      throw error;
    });
  }

  async runNow(name: string, reason: TriggerReason): Promise<TaskEvent | undefined> {
    const runtime = this.#find(name, `run task "${name}"`);
    if (runtime.deleting) return undefined;
    return runtime.request({ reason, force: true, retries: false });
  }

  idle(): Promise<void> {
    return this.#engine.idle();
  }

  onEvent(listener: (event: TaskEvent) => void): () => void {
    const listeners = this.#engine.context.records.listeners;
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  listRuns(name: string, query: RunQuery): Promise<RunPage> {
    const known = this.#known(name, `read the runs of task "${name}"`);
    return readRuns(known.name, this.#engine.context.records.store, query, known.recorder);
  }

  getRun(name: string, id: string): Promise<RunRecord | undefined> {
    const known = this.#known(name, `read run "${id}" of task "${name}"`);
    return readRun(known.name, this.#engine.context.records.store, id, known.recorder);
  }

  outputs(name: string): Promise<TaskOutputs | undefined> {
    const runtime = this.#find(name, `read the outputs of task "${name}"`);
    return readOutputs(runtime.name, this.#engine.context.records.store, runtime.recorder, runtime.runState.lastApplied);
  }

  /** A damaged task's history is intact (its runs are stored apart): it can be read, without live runs. */
  #known(name: string, action: string): { readonly name: string; readonly recorder?: RunRecorder } {
    if (this.#engine.active && this.#engine.damaged.has(name)) return { name };
    const runtime = this.#find(name, action);
    return { name: runtime.name, recorder: runtime.recorder };
  }

  /** Removes a damaged task's keys (the repair its status names); serialised with create, as a delete is. */
  #deleteDamaged(name: string): Promise<void> {
    return this.#serial(async () => {
      await this.#engine.context.records.store.deleteTask(name);
      this.#engine.damaged.delete(name);
      this.#engine.context.records.daemonEvents.publish({ type: "task.deleted", task: name });
    });
  }

  async #inspect(runtime: TaskRuntime): Promise<InspectPlan> {
    return runtime.plan();
  }

  #find(name: string, action: string): TaskRuntime {
    this.#requireLeader(action);
    const damaged = this.#engine.damaged.get(name);
    if (damaged) throw damaged.refuse(action);
    const runtime = this.#engine.tasks.get(name);
    if (!runtime) throw new CtsError("CTS_ERR_NOT_FOUND", `Cannot ${action}: task "${name}" does not exist or has not been initialized yet`);
    return runtime;
  }

  #requireLeader(action: string): void {
    if (!this.#engine.active) {
      throw new CtsError("CTS_ERR_NOT_LEADER", `Cannot ${action}: this instance is not the leader`);
    }
  }

  #state(runtime: TaskRuntime): TaskState {
    const limit = this.#engine.context.records.eventLimit;
    const drift = this.#drift.stateOf(runtime.name);
    return {
      config: runtime.config,
      status: taskStatus(runtime.events, limit),
      events: runtime.events,
      running: runtime.running,
      deleting: runtime.deleting,
      ...(drift ? { drift } : {}),
      ...(runtime.waiting !== undefined ? { waiting: runtime.waiting } : {}),
      ...(runtime.recorder.current[0] ? { currentRun: runtime.recorder.current[0] } : {}),
      ...(runtime.recorder.last ? { lastRun: runtime.recorder.last } : {}),
    };
  }

  /** Create and delete take turns (CTS holds one lock for both). */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#lock.then(work, work);
    this.#lock = next.catch(() => undefined);
    return next;
  }
}

async function discard(runtime: TaskRuntime): Promise<void> {
  runtime.stopWatching();
  await runtime.dispose();
}
