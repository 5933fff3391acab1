/**
 * @module Go-style duration strings (`"5s"`, `"1h30m"`, `"250ms"`) to and from milliseconds, because
 * CTS configs, Consul answers and API bodies carry Go durations and users compare what we print with
 * what CTS prints. In the contract so that core, plugins and dev servers share one parser.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6, us: 1e-3, "µs": 1e-3, "μs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000,
};

const DURATION_PATTERN = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/** Go's longest duration, 2^63-1 ns (about 292 years), in ms: its time.ParseDuration refuses longer ones. */
const MAX_DURATION_MS = 9_223_372_036_854.775;

/** True when `text` is written as a Go duration, whether or not Go can hold it (see `isGoDuration`). */
export function isGoDurationSyntax(text: string): boolean {
  return DURATION_PATTERN.test(text);
}

/** True when `text` is a Go duration string (sign allowed, `"0"` allowed, a unit on every number) Go can hold. */
export function isGoDuration(text: string): boolean {
  return parseGoDuration(text) !== undefined;
}

/** Milliseconds of a Go duration string, or `undefined` when it is not one (or overflows Go's, as CTS refuses it). */
export function parseGoDuration(text: string): number | undefined {
  if (!DURATION_PATTERN.test(text)) return undefined;
  const sign = text.startsWith("-") ? -1 : 1;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!;
  if (!(total <= MAX_DURATION_MS)) return undefined;
  // Rounded to whole nanoseconds so that "1.1s" is exactly 1100 ms.
  return sign * (Math.round(total * 1e6) / 1e6) + 0;
}

/** Formats milliseconds as Go's `time.Duration.String()` does: `0s`, `500ms`, `5s`, `1m30s`, `1h30m0s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  const ns = Math.round(Math.abs(ms) * 1e6);
  if (ns < 1e9) {
    if (ns < 1e3) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${trim(ns / 1e3)}µs`;
    return `${sign}${trim(ns / 1e6)}ms`;
  }
  const hours = Math.floor(ns / 3.6e12);
  const minutes = Math.floor((ns % 3.6e12) / 6e10);
  const seconds = trim((ns % 6e10) / 1e9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function trim(value: number): string {
  return String(Number(value.toFixed(9)));
}
