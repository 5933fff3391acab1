/** @module Reads CTS's Consul transport durations, which HCL may give as Go duration text or as a number. */
import { parseGoDuration } from "../../../core/plugin-api/mod.ts";

/** Milliseconds, or undefined when `value` is not a non-negative duration (numbers are taken as milliseconds). */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const ms = parseGoDuration(value.trim());
  return ms !== undefined && ms >= 0 ? ms : undefined;
}
