/**
 * @module The task engine's plugin options, set like any plugin's:
 * `plugin "task-engine" { source = "builtin:task-engine" options = { one_shot_consul_wait = "2m" } }`.
 */
import type { DriftDetectionConfig, JsonSchema } from "../../../core/plugin-api/mod.ts";
import { driftDetectionSchema } from "./drift-settings.ts";
import { retrySchema, type RetryOptions } from "./retry-policy.ts";
import { runHistorySchema, type RunHistoryOptions } from "./run-history-options.ts";

export interface EngineOptions {
  /**
   * How long `-once` and `-inspect` wait for a task's Consul data before failing with exit 11.
   * CTS fails these modes fast instead of retrying (its PR #155); a CI job must never hang on an
   * unreachable Consul. The daemon keeps retrying forever.
   * @default "60s"
   */
  readonly one_shot_consul_wait: string;
  /** How much run history is kept per task (see run-history-options.ts). */
  readonly run_history?: RunHistoryOptions;
  /** Every task's drift detection default (see drift-settings.ts). */
  readonly drift_detection?: DriftDetectionConfig;
  /** How failed runs are retried (see retry-policy.ts). */
  readonly retry?: RetryOptions;
}

export const engineOptionsSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    one_shot_consul_wait: {
      type: "string",
      default: "60s",
      description: "How long -once and -inspect wait for a task's Consul data before failing (Go duration).",
    },
    run_history: runHistorySchema,
    drift_detection: driftDetectionSchema,
    retry: retrySchema,
  },
};
