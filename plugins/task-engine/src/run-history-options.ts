/**
 * @module The run history's retention, set in the engine's plugin options:
 * `plugin "task-engine" { source = "builtin:task-engine" options = { run_history = { max_runs_per_task = 100, max_age = "168h" } } }`.
 * Both limits apply: a record goes when it is not among the newest `max_runs_per_task` of its task
 * or when it started more than `max_age` ago.
 */
import { CtsError, parseGoDuration, type JsonSchema, type OptionsOf, type RunRetention } from "../../../core/plugin-api/mod.ts";

export const DEFAULT_MAX_RUNS_PER_TASK = 100;
export const DEFAULT_MAX_AGE = "168h";
/** A higher cap would make the history API read (and Consul hold) too many records per task. */
export const MAX_RUNS_PER_TASK_LIMIT = 1000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** Three phases at this bound still fit one Consul KV value (512 KiB) with the rest of a record. */
export const MAX_OUTPUT_BYTES_LIMIT = 128 * 1024;

export const runHistorySchema = {
  type: "object",
  additionalProperties: false,
  description: "How much run history is kept per task (GET /v1/tasks/{name}/runs).",
  properties: {
    max_runs_per_task: {
      type: "integer", minimum: 1, maximum: MAX_RUNS_PER_TASK_LIMIT, default: DEFAULT_MAX_RUNS_PER_TASK,
      description: "Newest run records kept per task.",
    },
    max_age: {
      type: "string", format: "go-duration", default: DEFAULT_MAX_AGE,
      description: "Run records older than this are dropped (Go duration, e.g. \"168h\").",
    },
    max_output_bytes: {
      type: "integer", minimum: 1024, maximum: MAX_OUTPUT_BYTES_LIMIT, default: DEFAULT_MAX_OUTPUT_BYTES,
      description: "Bytes of Terraform output a run record keeps per phase (init, plan, apply); past it the middle is left out.",
    },
  },
} as const satisfies JsonSchema;

/** The `run_history` option as the kernel hands it over: every field defaulted. */
export type RunHistoryOptions = OptionsOf<typeof runHistorySchema>;

/**
 * The retention the stores apply. The schema checked the count's range and that `max_age` is a Go
 * duration; this checks what it cannot say: that the duration is positive.
 */
export function runRetentionOf(options: RunHistoryOptions | undefined): RunRetention {
  const max = options?.max_runs_per_task ?? DEFAULT_MAX_RUNS_PER_TASK;
  const age = options?.max_age ?? DEFAULT_MAX_AGE;
  const ms = parseGoDuration(age);
  if (ms === undefined || ms <= 0) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID",
      `Cannot use run_history.max_age "${age}": expected a positive duration such as "168h" or "30m"`);
  }
  return { maxRunsPerTask: max, maxAgeMs: ms };
}

/** The output bound per phase (its range is the schema's). */
export function runOutputBytesOf(options: RunHistoryOptions | undefined): number {
  return options?.max_output_bytes ?? DEFAULT_MAX_OUTPUT_BYTES;
}
