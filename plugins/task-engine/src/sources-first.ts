/**
 * @module The order a task gets ready in: its Consul queries first, then the driver's init. CTS's
 * driver (driver/terraform.go, initTask) fetches every query of the task's template before
 * `terraform init` and `validate`, so a task whose query Consul rejects (an unknown datacenter, a bad
 * filter, a namespace on Consul CE) reports Consul's error ("No path to datacenter", "Selector ...",
 * "Invalid query parameter") even when its module would also fail validation, and `task create`
 * answers with that error. Sources only fill inputs until the task is armed, so nothing runs early.
 */
import type { TaskRuntime } from "./task-runtime.ts";

/** Starts the task's sources, then (while `stillWanted`) prepares its driver. */
export async function sourcesFirst(runtime: TaskRuntime, stillWanted: () => boolean = () => true): Promise<void> {
  await runtime.startSources();
  if (!stillWanted()) return;
  try {
    await runtime.prepare();
  } catch (error) {
    // A task whose driver cannot start watches nothing (as before, when sources started second).
    runtime.stopWatching();
    throw error;
  }
}
