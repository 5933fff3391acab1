/**
 * @module Which ended runs notify. A run that reached the driver ends `applied` or `failed`; a
 * skipped trigger (inputs unchanged, task disabled) is no run and never notifies. `changes` compares
 * with the task's previous run seen by this process; the first one notifies only when it failed, so
 * a restart does not announce every healthy task.
 */
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import type { NotifyOn } from "./notifier-options.ts";

export type RunStatus = "succeeded" | "failed";

export function runStatus(run: RunRecord): RunStatus | undefined {
  return run.outcome === "applied" ? "succeeded" : run.outcome === "failed" ? "failed" : undefined;
}

export class NotifyPolicy {
  readonly #previous = new Map<string, RunStatus>();

  /** Records the run's status; returns the previous one and whether `on` says to notify. */
  decide(run: RunRecord, on: NotifyOn): { notify: boolean; previous?: RunStatus } {
    const status = runStatus(run);
    if (status === undefined) return { notify: false };
    const previous = this.#previous.get(run.task);
    this.#previous.set(run.task, status);
    const notify = on === "all" ||
      (on === "failures" && status === "failed") ||
      (on === "changes" && (previous === undefined ? status === "failed" : previous !== status));
    return { notify, ...(previous !== undefined ? { previous } : {}) };
  }
}
