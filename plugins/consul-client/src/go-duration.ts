/** @module Parses Go duration strings (`1h30m`, `500ms`, `30s`) as CTS config and Consul use them. */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6, us: 1e-3, "µs": 1e-3, "μs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000,
};

/** Milliseconds, or undefined when `value` is not a duration (numbers are taken as milliseconds). */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text === "0") return 0;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = part.exec(text); match; match = part.exec(text)) {
    total += Number(match[1]) * (UNIT_MS[match[2]!] ?? 0);
    consumed = part.lastIndex;
  }
  return consumed > 0 && consumed === text.length ? total : undefined;
}
