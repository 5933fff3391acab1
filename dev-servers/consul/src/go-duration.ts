/**
 * @module Go `time.Duration` text in nanoseconds, Consul's own unit: the contract's parser and printer
 * (milliseconds) rescaled, so that the dev server reads and prints durations as CTS and Consul do.
 */
import { formatGoDuration as formatMs, parseGoDuration as parseMs } from "../../../core/plugin-api/mod.ts";

/** Nanoseconds, or undefined when `text` is not a Go duration. "0" alone is valid. */
export function parseGoDuration(text: string): number | undefined {
  const ms = parseMs(text);
  return ms === undefined ? undefined : Math.round(ms * 1e6);
}

/** Go's Duration.String() of `ns` nanoseconds: "0s", "500ms", "1.5s", "1m30s", "1h0m0s". */
export function formatGoDuration(ns: number): string {
  return formatMs(ns / 1e6);
}
