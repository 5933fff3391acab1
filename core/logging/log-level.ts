/** @module Log levels: CTS's names (`ERR` accepted for `ERROR`) and their order. */
import type { LogLevel } from "../plugin-api/mod.ts";

const ORDER: Readonly<Record<LogLevel, number>> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4 };

/** Accepts CTS's config spellings (`ERR`, any case); unknown values are the caller's error to report. */
export function parseLogLevel(value: string): LogLevel | undefined {
  const upper = value.toUpperCase();
  if (upper === "ERR") return "ERROR";
  return upper in ORDER ? (upper as LogLevel) : undefined;
}

export function isEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return ORDER[level] >= ORDER[threshold];
}
