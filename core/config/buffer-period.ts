/** @module Buffer period resolution as CTS does it: a task block against the global one, the global against defaults. */
import type { BufferPeriodConfig } from "../plugin-api/mod.ts";
import { parseGoDuration } from "../plugin-api/mod.ts";

export const DEFAULT_BUFFER_PERIOD: BufferPeriodConfig = Object.freeze({ enabled: true, min: 5_000, max: 20_000 });
export const DISABLED_BUFFER_PERIOD: BufferPeriodConfig = Object.freeze({ enabled: false, min: 0, max: 0 });

/** A `buffer_period` block as written (durations still strings). */
export interface RawBufferPeriod {
  readonly enabled?: boolean;
  readonly min?: string;
  readonly max?: string;
}

/** True when the block sets anything (CTS then shows it on the task). */
export function isBufferPeriodConfigured(raw: RawBufferPeriod | undefined): boolean {
  return raw !== undefined && Object.values(raw).some((value) => value !== undefined);
}

/**
 * Explicit `enabled = false` disables (0/0); an empty block inherits the parent; otherwise enabled,
 * with `min` falling back to the parent's (if the parent is enabled, else 5s), `max` to 4 × min, and
 * `max` raised to `min` when smaller. Unparseable durations are rejected by the schema beforehand.
 */
export function resolveBufferPeriod(raw: RawBufferPeriod | undefined, parent: BufferPeriodConfig): BufferPeriodConfig {
  if (raw?.enabled === false) return DISABLED_BUFFER_PERIOD;
  if (!isBufferPeriodConfigured(raw)) return parent;
  const min = raw?.min !== undefined
    ? parseGoDuration(raw.min) ?? 0
    : parent.enabled ? parent.min : DEFAULT_BUFFER_PERIOD.min;
  const max = raw?.max !== undefined ? parseGoDuration(raw.max) ?? 0 : 4 * min;
  return { enabled: true, min, max: Math.max(min, max) };
}

/** Field names whose value is negative (CTS rejects negative buffer periods). */
export function negativeBufferFields(raw: RawBufferPeriod | undefined): string[] {
  return (["min", "max"] as const).filter((key) => {
    const value = raw?.[key];
    return value !== undefined && (parseGoDuration(value) ?? 0) < 0;
  });
}
