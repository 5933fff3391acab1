/**
 * @module Counts task runs by result from TaskManager events, so `cts_task_runs_total` survives
 * the engine keeping only the newest few events per task.
 */
import type { TaskEvent } from "../../../core/plugin-api/mod.ts";

export type RunResult = "success" | "error" | "skipped";

export class RunCounter {
  /** task name → result → runs since this process started. */
  readonly #counts = new Map<string, Map<RunResult, number>>();

  record(event: TaskEvent): void {
    const result: RunResult = !event.success ? "error" : event.skipped ? "skipped" : "success";
    let perTask = this.#counts.get(event.task_name);
    if (!perTask) this.#counts.set(event.task_name, (perTask = new Map()));
    perTask.set(result, (perTask.get(result) ?? 0) + 1);
  }

  entries(): { task: string; result: RunResult; count: number }[] {
    return [...this.#counts].flatMap(([task, perTask]) => [...perTask].map(([result, count]) => ({ task, result, count })));
  }
}
