/**
 * @module The task engine's plugin options, set like any plugin's:
 * `plugin "task-engine" { source = "builtin:task-engine" options = { one_shot_consul_wait = "2m" } }`.
 * The schema is their one description: the kernel checks it and fills in its defaults, and
 * `EngineOptions` is inferred from it.
 */
import type { JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";
import { CtsError, parseGoDuration } from "../../../core/plugin-api/mod.ts";
import { driftDetectionSchema } from "./drift-settings.ts";
import { retrySchema } from "./retry-policy.ts";
import { runHistorySchema } from "./run-history-options.ts";

export const engineOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    // CTS fails -once and -inspect fast instead of retrying (its PR #155): a CI job must never hang
    // on an unreachable Consul. The daemon keeps retrying forever. No `go-duration` format: a bad
    // value keeps its own message (oneShotConsulWaitMs).
    one_shot_consul_wait: {
      type: "string",
      default: "60s",
      description: "How long -once and -inspect wait for a task's Consul data before failing (Go duration).",
    },
    run_history: runHistorySchema,
    drift_detection: driftDetectionSchema,
    retry: retrySchema,
  },
} as const satisfies JsonSchema;

/** The options as the kernel hands them over (checked, defaulted, frozen). */
export type EngineOptions = OptionsOf<typeof engineOptionsSchema>;

/** `one_shot_consul_wait` in ms; the schema cannot tell a Go duration from other text here. */
export function oneShotConsulWaitMs(options: EngineOptions): number {
  const ms = parseGoDuration(options.one_shot_consul_wait);
  if (ms === undefined) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use one_shot_consul_wait "${options.one_shot_consul_wait}": expected a duration such as "60s"`);
  }
  return ms;
}
