/**
 * @module Drift detection's scheduler: checks each task whose settings enable it when its interval
 * (or cron) is due, keeps each task's drift state for the API, publishes `task.drift` when a
 * finding differs from the one before, counts checks for `/metrics`, and queues the correcting
 * apply when `auto_correct` is set. Only an instance that runs the task checks it (the leader, or
 * the task's owner in a shared cluster), and a check never overlaps one of the task's runs.
 */
import type { DriftState, Logger, MetricFamily, MetricsSource } from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import { checkTaskDrift, type DriftCheckResult } from "./drift-check.ts";
import { driftSettingsOf, type DriftDefaults } from "./drift-settings.ts";
import type { Engine } from "./engine.ts";
import type { TaskRuntime } from "./task-runtime.ts";

/** How often due checks are looked for; a check is at most this late. */
const TICK_MS = 500;

type CheckResult = "none" | "drifted" | "error";

export class DriftMonitor implements MetricsSource {
  readonly name = "task-engine-drift";
  readonly #engine: Engine;
  readonly #logger: Logger;
  /** Every task's drift detection default (engine option `drift_detection`). */
  readonly #defaults: DriftDefaults | undefined;
  readonly #states = new Map<string, DriftState>();
  /** When each enabled task's next check is due (epoch ms). */
  readonly #due = new Map<string, number>();
  readonly #checking = new Set<string>();
  readonly #checks = new Map<string, Record<CheckResult, number>>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(engine: Engine, logger: Logger, defaults?: DriftDefaults) {
    this.#engine = engine;
    this.#logger = logger.child("drift");
    this.#defaults = defaults;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.#tick(), TICK_MS);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The task's drift state for the API (`unknown` until a check ended). */
  stateOf(name: string): DriftState {
    const state = this.#states.get(name) ?? { status: "unknown", resources: [] };
    const due = this.#due.get(name);
    return due !== undefined && Number.isFinite(due) ? { ...state, next_check: new Date(due).toISOString() } : state;
  }

  /** The task was deleted or changed: its findings no longer hold, and its schedule restarts. */
  forget(name: string): void {
    this.#states.delete(name);
    this.#due.delete(name);
    this.#checks.delete(name);
  }

  /** Checks one task now (the scheduler's tick; tests call it through the tick). */
  async check(runtime: TaskRuntime): Promise<DriftCheckResult> {
    const name = runtime.name;
    const settings = driftSettingsOf(runtime.config, this.#defaults);
    this.#checking.add(name);
    try {
      const result = await checkTaskDrift(runtime, this.#engine.context, settings);
      if (this.#engine.tasks.get(name) !== runtime) return result; // deleted or replaced meanwhile
      if (result.why) {
        this.#logger.debug("drift check skipped", { task_name: name, reason: result.why });
        return result;
      }
      this.#note(runtime, result);
      if (result.report?.drifted && settings.autoCorrect) {
        this.#logger.info("correcting drift: applying the task's inputs", { task_name: name });
        // After the check released the task: the apply is a run of its own, recorded as one.
        void runtime.request({ reason: { kind: "drift", detail: "auto_correct" }, force: true, retries: false });
      }
      return result;
    } finally {
      this.#checking.delete(name);
    }
  }

  collect(): readonly MetricFamily[] {
    const drifted = [...this.#states].filter(([, state]) => state.status !== "unknown");
    return [
      {
        name: "cts_task_drift",
        help: "1 when the task's newest drift check found drift, 0 when it found none (absent before a check).",
        type: "gauge",
        samples: drifted.map(([task, state]) => ({ labels: { task }, value: state.status === "drifted" ? 1 : 0 })),
      },
      {
        name: "cts_drift_checks_total",
        help: "Drift checks by task and result (none, drifted, error).",
        type: "counter",
        samples: [...this.#checks].flatMap(([task, counts]) =>
          (Object.keys(counts) as CheckResult[]).map((result) => ({ labels: { task, result }, value: counts[result] }))),
      },
    ];
  }

  #note(runtime: TaskRuntime, result: DriftCheckResult): void {
    const name = runtime.name;
    const previous = this.#states.get(name);
    const record = result.record;
    const kind: CheckResult = result.error !== undefined ? "error" : result.report?.drifted ? "drifted" : "none";
    const counts = this.#checks.get(name) ?? { none: 0, drifted: 0, error: 0 };
    counts[kind]++;
    this.#checks.set(name, counts);
    const state: DriftState = result.error !== undefined
      ? { ...(previous ?? { status: "unknown", resources: [] }), error: result.error, ...(record ? { run_id: record.id } : {}) }
      : {
        status: result.report!.drifted ? "drifted" : "none",
        resources: result.report!.resources,
        ...(record?.ended_at ? { checked_at: record.ended_at } : {}),
        ...(record ? { run_id: record.id } : {}),
      };
    this.#states.set(name, state);
    if (result.error !== undefined) {
      this.#logger.warn("drift check failed", { task_name: name, error: result.error });
      return;
    }
    if (state.status === "drifted") {
      this.#logger.warn("drift detected", {
        task_name: name, resources: state.resources.map((resource) => `${resource.address} (${resource.action})`).join(", "),
      });
    }
    const changed = previous?.status !== state.status || JSON.stringify(previous?.resources) !== JSON.stringify(state.resources);
    if (changed) {
      try {
        this.#engine.context.records.daemonEvents.publish({ type: "task.drift", task: name, drift: this.stateOf(name) });
      } catch (error) {
        this.#logger.error("cannot publish daemon event", { error: errorMessage(error) });
      }
    }
  }

  #tick(): void {
    const engine = this.#engine;
    if (!engine.active) return;
    const now = Date.now();
    const owns = engine.context.instance.owns;
    for (const [name, runtime] of engine.tasks) {
      let settings;
      try {
        settings = driftSettingsOf(runtime.config, this.#defaults);
      } catch (error) {
        this.#logger.error("cannot schedule drift checks", { task_name: name, error: errorMessage(error) });
        continue;
      }
      if (!settings.enabled || !runtime.config.enabled || (owns && !owns(name))) {
        this.#due.delete(name);
        continue;
      }
      if (runtime.driver && !runtime.driver.checkDrift) {
        // A driver that cannot plan for drift (a third-party one) is said once, not failed every interval.
        this.#due.delete(name);
        if (this.#states.get(name)?.error === undefined) {
          const error = `Cannot check task "${name}" for drift: driver "${runtime.config.driver}" cannot plan for drift`;
          this.#states.set(name, { status: "unknown", resources: [], error });
          this.#logger.warn("drift detection is on but the task's driver cannot check for drift", { task_name: name });
        }
        continue;
      }
      const due = this.#due.get(name);
      if (due === undefined) {
        this.#due.set(name, settings.next(now));
        continue;
      }
      if (now < due || this.#checking.has(name) || runtime.deleting || !runtime.armed || runtime.running) continue;
      this.#due.set(name, settings.next(now));
      engine.track(this.check(runtime)).catch((error) =>
        this.#logger.error("drift check failed", { task_name: name, error: errorMessage(error) }));
    }
  }
}
