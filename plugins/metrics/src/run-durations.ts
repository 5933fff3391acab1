/**
 * @module `cts_task_run_duration_seconds`: a Prometheus histogram of how long runs that reached the
 * driver took, per task and result, from the engine's `run.ended` events (skipped triggers are
 * counted apart, in skipped-triggers.ts). Buckets from 0.1 s, a quick local apply, to 300 s, a slow
 * remote HCP Terraform run.
 */
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import type { MetricFamily, Sample } from "./exposition.ts";

export const RUN_DURATION_BUCKETS: readonly number[] = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

interface Series {
  /** Per bucket, non-cumulative; cumulated when rendered. */
  readonly counts: number[];
  sum: number;
  count: number;
}

export class RunDurations {
  /** `task\u0000result` → series. */
  readonly #series = new Map<string, { task: string; result: string; series: Series }>();

  record(run: RunRecord): void {
    if ((run.outcome !== "applied" && run.outcome !== "failed") || run.duration_ms === undefined) return;
    const result = run.outcome === "applied" ? "success" : "error";
    const key = `${run.task}\u0000${result}`;
    let entry = this.#series.get(key);
    if (!entry) {
      entry = { task: run.task, result, series: { counts: RUN_DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 } };
      this.#series.set(key, entry);
    }
    const seconds = run.duration_ms / 1000;
    const bucket = RUN_DURATION_BUCKETS.findIndex((le) => seconds <= le);
    if (bucket >= 0) entry.series.counts[bucket]!++;
    entry.series.sum += seconds;
    entry.series.count++;
  }

  family(): MetricFamily {
    const samples: Sample[] = [];
    const entries = [...this.#series.values()].sort((a, b) => (a.task + a.result < b.task + b.result ? -1 : 1));
    for (const { task, result, series } of entries) {
      let cumulative = 0;
      RUN_DURATION_BUCKETS.forEach((le, i) => {
        cumulative += series.counts[i]!;
        samples.push({ suffix: "_bucket", labels: { task, result, le: String(le) }, value: cumulative });
      });
      samples.push({ suffix: "_bucket", labels: { task, result, le: "+Inf" }, value: series.count });
      samples.push({ suffix: "_sum", labels: { task, result }, value: series.sum });
      samples.push({ suffix: "_count", labels: { task, result }, value: series.count });
    }
    return {
      name: "cts_task_run_duration_seconds",
      help: "How long task runs that reached the driver took, by task and result (success, error).",
      type: "histogram",
      samples,
    };
  }
}
