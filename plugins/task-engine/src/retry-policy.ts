/**
 * @module The retry policy for failed runs (beyond CTS), one for every driver, set in the engine's
 * plugin options: `plugin "task-engine" { source = "builtin:task-engine" options = { retry = {
 * max_retries = 8, backoff = "30s", max_backoff = "10m" } } }`. A run the daemon started itself
 * (a change, a schedule, a new leader) that fails is run again, each time a run of its own with the
 * reason `retry`, after `backoff` doubling up to `max_backoff`, at most `max_retries` times; a new
 * change supersedes the retry. `max_retries = 0` is CTS's behaviour: a failed run waits for the next change.
 * CTS's own two quick retries of a failed apply inside one run (retry.ts) apply either way.
 */
import { CtsError, parseGoDuration, type JsonSchema, type OptionsOf } from "../../../core/plugin-api/mod.ts";

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 8, backoffMs: 30_000, maxBackoffMs: 600_000 };

export const retrySchema = {
  type: "object",
  additionalProperties: false,
  description: "How failed runs are retried (0 retries: CTS's behaviour, a failed run waits for the next change).",
  properties: {
    max_retries: { type: "integer", minimum: 0, maximum: 1000, default: DEFAULT_RETRY.maxRetries, description: "Retries after a failed run." },
    backoff: { type: "string", format: "go-duration", default: "30s", description: "Wait before the first retry; doubles each retry." },
    // No schema default: unset, it is 10m or `backoff` when that is longer (an explicit shorter one is refused).
    max_backoff: { type: "string", format: "go-duration", description: "Longest wait between retries (default 10m, or backoff when longer)." },
  },
} as const satisfies JsonSchema;

/** The `retry` option as the kernel hands it over: `max_retries` and `backoff` defaulted. */
export type RetryOptions = OptionsOf<typeof retrySchema>;

/**
 * The policy the options describe. The schema checked the shape (a whole count, Go durations);
 * this checks what it cannot say: a positive wait, and `max_backoff` no shorter than `backoff`.
 */
export function retryPolicyOf(options: RetryOptions | undefined): RetryPolicy {
  if (options === undefined) return DEFAULT_RETRY;
  const positive = (field: "backoff" | "max_backoff", fallback: number): number => {
    const text = options[field];
    if (text === undefined) return fallback;
    const ms = parseGoDuration(text);
    if (ms === undefined || ms <= 0) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use retry.${field} "${text}": expected a positive duration such as "30s"`);
    }
    return ms;
  };
  const backoffMs = positive("backoff", DEFAULT_RETRY.backoffMs);
  const maxBackoffMs = positive("max_backoff", Math.max(DEFAULT_RETRY.maxBackoffMs, backoffMs));
  if (maxBackoffMs < backoffMs) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use retry.max_backoff "${options.max_backoff}": it is shorter than retry.backoff "${options.backoff}"`);
  }
  return { maxRetries: options.max_retries, backoffMs, maxBackoffMs };
}

/** The wait before retry `n` (1-based): `backoff` doubling up to `max_backoff`, plus up to a tenth, so tasks that failed together spread out. */
export function retryWaitMs(policy: RetryPolicy, n: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.min(n - 1, 30));
  return Math.round(base * (1 + random() / 10));
}
