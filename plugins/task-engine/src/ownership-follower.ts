/**
 * @module Shared cluster mode: the engine follows TaskOwnership. A task that moves here runs once,
 * like every task after a CTS failover, against the last run its previous owner stored (so unchanged
 * inputs skip the apply, and a run cut short stays "started" and runs again). A task that moves away
 * is let go only when its current run ended (its lock is released after that).
 */
import type { TaskOwnership } from "../../../core/plugin-api/mod.ts";
import type { DriftStates } from "./drift-service.ts";
import type { Engine } from "./engine.ts";
import { adoptStoredConfig } from "./task-update.ts";

export function followOwnership(engine: Engine, ownership: TaskOwnership, drift: Pick<DriftStates, "forget">): () => void {
  return ownership.subscribe(async (task, owned) => {
    let runtime = engine.tasks.get(task);
    if (!runtime) return;
    if (!owned) {
      await runtime.whenIdle();
      return;
    }
    // Not armed yet: the engine's pass over the tasks runs it when it gets there.
    if (!runtime.armed) return;
    const stored = await engine.context.records.store.getTask(task).catch(() => undefined);
    // Its previous owner may have changed it at runtime (PATCH): the stored configuration wins.
    if (stored) {
      runtime = await adoptStoredConfig(engine, runtime, stored, { changed: (name) => drift.forget(name) }).catch((error) => {
        engine.context.logger.error("cannot use the task's stored configuration", { task_name: task, error: String(error) });
        return runtime!;
      });
    }
    runtime.runState.reload(stored);
    void engine.track(runtime.request({ reason: { kind: "leader", detail: "task moved to this instance" }, force: false, retries: false }))
      .catch(() => {});
  });
}
