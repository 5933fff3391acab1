/**
 * @module Metrics a plugin contributes to `GET /metrics`: it registers a named source in the
 * kernel's registry (`metricsSourceRegistryToken`) during `init`, and the metrics plugin reads every
 * source when it is scraped, so nothing is sampled in the background and a plugin needs no other
 * plugin to publish its counters.
 */
import type { Named } from "../registry.ts";

export type MetricType = "gauge" | "counter" | "histogram";

export interface MetricSample {
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number;
  /** Appended to the family name: a histogram's `_bucket`, `_sum` and `_count`. */
  readonly suffix?: string;
}

/** One metric family, as Prometheus' text format writes it (`# HELP`, `# TYPE`, samples). */
export interface MetricFamily {
  /** `cts_<plugin>_<what>`, e.g. `cts_notifications_total`. */
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly samples: readonly MetricSample[];
}

/** A plugin's metrics; `name` identifies the source (its plugin id). */
export interface MetricsSource extends Named {
  /** Called at each scrape: the current values. Must be cheap and must not throw. */
  collect(): readonly MetricFamily[];
}
