/**
 * @module Drift detection settings: the engine's `drift_detection` option is every task's default
 * (`plugin "task-engine" { options = { drift_detection = { enabled = true, interval = "1h" } } }`),
 * and a task's own `drift_detection {}` block overrides it field by field. Off by default: a check
 * runs two plans, which costs a provider's API calls.
 */
import { Cron } from "croner";
import type { JsonSchema, OptionsOf, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { CtsError, parseGoDuration } from "../../../core/plugin-api/mod.ts";

export const DEFAULT_DRIFT_INTERVAL = "1h";

export const driftDetectionSchema = {
  type: "object",
  additionalProperties: false,
  description: "Every task's drift detection default; a task's drift_detection block overrides it field by field.",
  properties: {
    enabled: { type: "boolean", default: false, description: "Check tasks for drift (a task's block without enabled turns it on)." },
    // No schema default: it would clash with `cron`.
    interval: { type: "string", format: "go-duration", description: "Time between checks (Go duration, at least 1s; default 1h)." },
    cron: { type: "string", description: "Instead of interval: when to check (cron expression, 5 or 6 fields)." },
    auto_correct: { type: "boolean", default: false, description: "Apply at once when drift is found (default: report only)." },
  },
} as const satisfies JsonSchema;

/** The engine's `drift_detection` option as the kernel hands it over: `enabled` and `auto_correct` defaulted. */
export type DriftDefaults = OptionsOf<typeof driftDetectionSchema>;

/** A task's effective settings. */
export interface DriftSettings {
  readonly enabled: boolean;
  readonly autoCorrect: boolean;
  /** When the check after one at `from` is due (epoch ms). */
  next(from: number): number;
  /** `every 1h` or `cron 0 * * * *`, for records and logs. */
  readonly describe: string;
}

/**
 * Checks the engine option once at start-up (a task's block is checked at load) for what its schema
 * cannot say: interval and cron exclude each other, the interval is at least 1s, the cron parses.
 */
export function checkDriftDefaults(defaults: DriftDefaults | undefined): void {
  if (!defaults) return;
  if (defaults.interval !== undefined && defaults.cron !== undefined) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use drift_detection: interval and cron are both set; use one of them`);
  }
  const ms = parseGoDuration(defaults.interval ?? DEFAULT_DRIFT_INTERVAL);
  if (ms === undefined || ms < 1000) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use drift_detection.interval "${defaults.interval}": expected a duration of at least 1s`);
  }
  if (defaults.cron !== undefined) cronOf(defaults.cron);
}

function cronOf(expression: string): Cron {
  try {
    return new Cron(expression, { paused: true });
  } catch (error) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use drift_detection.cron "${expression}": ${(error as Error).message}`);
  }
}

/** The task's settings over the defaults; `enabled` false when drift detection is off for it. */
export function driftSettingsOf(task: TaskConfig, defaults: DriftDefaults | undefined): DriftSettings {
  const own = task.drift_detection;
  const enabled = own?.enabled ?? (own !== undefined ? true : defaults?.enabled ?? false);
  const autoCorrect = own?.auto_correct ?? defaults?.auto_correct ?? false;
  // A task's interval or cron replaces both of the default's.
  const timing = own?.interval !== undefined || own?.cron !== undefined ? own : defaults;
  if (timing?.cron !== undefined) {
    const cron = cronOf(timing.cron);
    return {
      enabled, autoCorrect, describe: `cron ${timing.cron}`,
      next: (from) => cron.nextRun(new Date(from))?.getTime() ?? Number.POSITIVE_INFINITY,
    };
  }
  const interval = timing?.interval ?? DEFAULT_DRIFT_INTERVAL;
  const ms = Math.max(1000, parseGoDuration(interval) ?? 3_600_000);
  return { enabled, autoCorrect, describe: `every ${interval}`, next: (from) => from + ms };
}
