/**
 * @module Shared cluster mode: the engine follows TaskOwnership. A task that moves here runs once,
 * like every task after a CTS failover, against the last run its previous owner stored (so unchanged
 * inputs skip the apply, and a run cut short stays "started" and runs again). A task that moves away
 * is let go only when its current run ended (its lock is released after that).
 */
import type { TaskOwnership } from "../../../core/plugin-api/mod.ts";
import type { Engine } from "./engine.ts";

export function followOwnership(engine: Engine, ownership: TaskOwnership): () => void {
  return ownership.subscribe(async (task, owned) => {
    const runtime = engine.tasks.get(task);
    if (!runtime) return;
    if (!owned) {
      await runtime.whenIdle();
      return;
    }
    // Not armed yet: the engine's pass over the tasks runs it when it gets there.
    if (!runtime.armed) return;
    const stored = await engine.context.store.getTask(task).catch(() => undefined);
    runtime.runState.reload(stored);
    void engine.track(runtime.request({ reason: { kind: "leader", detail: "task moved to this instance" }, force: false, retries: false }))
      .catch(() => {});
  });
}
