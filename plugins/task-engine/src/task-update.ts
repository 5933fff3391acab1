/**
 * @module Tasks changed at runtime (beyond CTS, whose PATCH only enables or disables, CTS#302): a
 * task's whole configuration is replaced between runs, keeping its name, events, run history and
 * Terraform state. The new configuration is prepared first (driver init, Consul queries) by a new
 * runtime; only when that worked does it replace the old one, so a bad change leaves the task as it
 * was. `inspect` plans the change in the task's working directory and then restores it.
 */
import type { InspectPlan, StoredTask, TaskConfig, TaskEvent } from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage, isPermanentConsulError } from "../../../core/plugin-api/mod.ts";
import type { Engine } from "./engine.ts";
import { TaskRuntime } from "./task-runtime.ts";

export type UpdateRun = "now" | "inspect" | undefined;

/** Fields that change how or when a task runs, never what it applies. */
const SCHEDULING_FIELDS = new Set(["enabled", "buffer_period", "buffer_period_configured", "drift_detection"]);

/** True when `a` and `b` apply the same thing (they differ at most in scheduling fields). */
export function appliesSame(a: TaskConfig, b: TaskConfig): boolean {
  const applied = (task: TaskConfig) =>
    JSON.stringify(Object.entries(task).filter(([key]) => !SCHEDULING_FIELDS.has(key)).sort(([x], [y]) => (x < y ? -1 : 1)));
  return applied(a) === applied(b);
}

/** What the engine calls when a task changed (drift detection forgets its findings). */
export interface UpdateHooks {
  readonly changed?: (name: string) => void;
}

async function discard(runtime: TaskRuntime): Promise<void> {
  runtime.stopWatching();
  await runtime.dispose();
}

/** A runtime for `config` with the task's events, prepared and watching; throws (and cleans up) when it cannot start. */
async function preparedRuntime(engine: Engine, stored: StoredTask, events: readonly TaskEvent[]): Promise<TaskRuntime> {
  const next = new TaskRuntime(stored, engine.context, events, false);
  try {
    await next.prepare();
    await next.startSources();
    return next;
  } catch (error) {
    await discard(next);
    if (isPermanentConsulError(error)) {
      throw new CtsError("CTS_ERR_BAD_REQUEST", `Cannot update task "${stored.config.name}": Consul rejected its query: ${errorMessage(error)}`, { cause: error });
    }
    throw error;
  }
}

/** Puts `next` in place of `current` (armed, stored), releasing `current`. Call between runs. */
async function swap(engine: Engine, current: TaskRuntime, next: TaskRuntime, hooks: UpdateHooks): Promise<void> {
  const name = current.name;
  // Its events and run records were held while it was prepared (a failed change leaves none): out now.
  await next.commit();
  current.stopWatching();
  if (engine.tasks.get(name) === current) engine.tasks.set(name, next);
  next.arm();
  hooks.changed?.(name);
  // The old driver goes once the caller released the old runtime's queue.
  void engine.track(current.whenIdle().then(() => current.dispose()));
}

/**
 * Replaces `current`'s configuration with `config`. A change is applied by the next run: `now`
 * runs it at once (the caller waits for its event); without `run` the next trigger applies it,
 * since the task's last run no longer counts as applying this configuration.
 */
export async function updateTask(
  engine: Engine, current: TaskRuntime, config: TaskConfig, run: UpdateRun, hooks: UpdateHooks = {},
): Promise<{ plan?: InspectPlan; event?: TaskEvent; runtime?: TaskRuntime }> {
  if (config.name !== current.name) {
    throw new CtsError("CTS_ERR_BAD_REQUEST", `Cannot update task "${current.name}": a task cannot be renamed (the request names "${config.name}")`);
  }
  if (run === "inspect") return { plan: await inspectUpdate(engine, current, config) };
  const next = await current.exclusive(async () => {
    if (current.deleting) throw new CtsError("CTS_ERR_CONFLICT", `Cannot update task "${current.name}": it is being deleted`);
    // What the task applied still holds when only its scheduling changed; otherwise no lastRun:
    // the next run must apply, whatever its inputs.
    const same = appliesSame(current.config, config);
    const stored: StoredTask = same ? current.runState.stored(config) : { config };
    let prepared: TaskRuntime;
    try {
      prepared = await preparedRuntime(engine, stored, current.events);
    } catch (error) {
      // The failed init may have rewritten the working directory: the old driver writes it again.
      await current.prepare(true).catch(() => undefined);
      throw error;
    }
    if (same) prepared.inheritApplied(current.lastAppliedInputs);
    await engine.context.records.store.putTask(stored);
    await swap(engine, current, prepared, hooks);
    return prepared;
  });
  engine.context.logger.info("task updated", { task_name: config.name, run: run ?? "" });
  if (run !== "now" || !config.enabled) return { runtime: next };
  const event = await next.request({ reason: { kind: "api", detail: "update run=now" }, force: true, retries: false });
  if (event && !event.success) throw new CtsError("CTS_ERR_TASK", `Cannot run task "${config.name}": ${event.error?.message}`);
  return event ? { event, runtime: next } : { runtime: next };
}

/** Plans `config` against the task's state with its current inputs, then restores the task's files. */
function inspectUpdate(engine: Engine, current: TaskRuntime, config: TaskConfig): Promise<InspectPlan> {
  return current.exclusive(async () => {
    if (!config.enabled) return { changesPresent: false, plan: `inspection skipped: task "${config.name}" would be disabled` };
    let candidate: TaskRuntime | undefined;
    try {
      candidate = await preparedRuntime(engine, { config }, []);
      const plan = await candidate.plan();
      return { ...plan, plan: engine.context.records.secrets.mask(plan.plan) };
    } finally {
      if (candidate) await discard(candidate);
      // The candidate wrote its files where the task's are: the task's own driver writes them back.
      await current.prepare(true);
    }
  });
}

/**
 * Shared cluster mode: a task that moved here takes the configuration stored by its previous owner
 * (an update made there). Returns the runtime that now runs the task.
 */
export async function adoptStoredConfig(engine: Engine, current: TaskRuntime, stored: StoredTask, hooks: UpdateHooks = {}): Promise<TaskRuntime> {
  if (JSON.stringify(stored.config) === JSON.stringify(current.config)) return current;
  return current.exclusive(async () => {
    const next = await preparedRuntime(engine, stored, current.events);
    await swap(engine, current, next, hooks);
    engine.context.logger.info("task configuration changed on another instance: using it", { task_name: current.name });
    return next;
  });
}
