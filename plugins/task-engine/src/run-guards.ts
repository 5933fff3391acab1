/**
 * @module Why a run must not start: the task stopped being watched (step-down, delete, process
 * stop), or a source has not delivered its first value, so an input would render empty.
 */
import { CtsError, type InputVariable } from "../../../core/plugin-api/mod.ts";

/** Thrown inside a run that had not started when watching stopped; the run is dropped, not failed. */
export class HaltedError extends Error {}

/** A stop ended the wait for a task's first data: nothing may run on what did not arrive. */
export function stoppedError(taskName: string): CtsError {
  return new CtsError("CTS_ERR_TASK", `Cannot start task "${taskName}": stopped while waiting for its first data from Consul`);
}

export function missingInputsText(variables: readonly InputVariable[]): string {
  return `its input ${variables.map((variable) => `"${variable}"`).join(", ")} has not been received from Consul yet`;
}
