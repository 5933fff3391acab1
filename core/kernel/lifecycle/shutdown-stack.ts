/**
 * @module A LIFO stack of shutdown steps (stop hooks, service disposals) that always runs to the
 * end: a failing or hanging step is recorded and the next one still runs.
 */
import { CtsError, errorMessage } from "../../plugin-api/mod.ts";
import { withTimeout } from "./with-timeout.ts";

export interface ShutdownStep {
  /** For messages, e.g. `stop hook of plugin "a"`. */
  readonly label: string;
  readonly run: () => void | Promise<void>;
  readonly timeoutMs: number;
}

export interface ShutdownFailure {
  readonly label: string;
  readonly error: unknown;
}

export class ShutdownStack {
  readonly #steps: ShutdownStep[] = [];

  push(step: ShutdownStep): void {
    this.#steps.push(step);
  }

  get size(): number {
    return this.#steps.length;
  }

  /** Pops and runs every step, newest first, one at a time; returns what failed. */
  async unwind(): Promise<ShutdownFailure[]> {
    const failures: ShutdownFailure[] = [];
    for (let step = this.#steps.pop(); step !== undefined; step = this.#steps.pop()) {
      try {
        await withTimeout(step.run, step.timeoutMs, "CTS_ERR_PLUGIN_STOP", `run ${step.label}`);
      } catch (error) {
        failures.push({ label: step.label, error });
      }
    }
    return failures;
  }
}

/** One error for everything that failed while stopping, each failure on its own line. */
export function shutdownError(failures: readonly ShutdownFailure[]): CtsError {
  const lines = failures.map((failure) => `\n  ${failure.label}: ${failureReason(failure)}`);
  return new CtsError(
    "CTS_ERR_PLUGIN_STOP",
    `Cannot stop cleanly: ${failures.length} step${failures.length === 1 ? "" : "s"} failed:${lines.join("")}`,
    { cause: new AggregateError(failures.map((failure) => failure.error)) },
  );
}

/** The failure's message without a leading "Cannot run <label>: " (the label is printed already). */
export function failureReason(failure: ShutdownFailure): string {
  const message = errorMessage(failure.error);
  const prefix = `Cannot run ${failure.label}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}
