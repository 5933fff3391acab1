/**
 * @module `cts_task_skipped_triggers_total`: triggers that did not run the driver, by task and the
 * engine's reason: `unchanged_inputs` (the inputs equal the last successful run's), `input_missing`
 * (a source has not delivered its first data), `disabled` (the task is disabled).
 */
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import type { MetricFamily } from "./exposition.ts";

export class SkippedTriggers {
  readonly #counts = new Map<string, { task: string; reason: string; count: number }>();

  record(run: RunRecord): void {
    if (run.outcome !== "skipped") return;
    const reason = run.skip_reason ?? "unknown";
    const key = `${run.task}\u0000${reason}`;
    const entry = this.#counts.get(key) ?? { task: run.task, reason, count: 0 };
    entry.count++;
    this.#counts.set(key, entry);
  }

  family(): MetricFamily {
    return {
      name: "cts_task_skipped_triggers_total",
      help: "Task triggers that did not run the driver since this process started, by reason.",
      type: "counter",
      samples: [...this.#counts.values()].map(({ task, reason, count }) => ({ labels: { task, reason }, value: count })),
    };
  }
}
