/** @module Go `time.Duration` text: parse requests ("1h30m", "500ms", "15s") and print responses like Go's String(). */

const UNIT_NS: Readonly<Record<string, number>> = {
  ns: 1, us: 1e3, "µs": 1e3, "μs": 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9,
};

const PART = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;

/** Nanoseconds, or undefined when `text` is not a Go duration. "0" alone is valid. */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    sign = rest.startsWith("-") ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0;
  if (rest === "") return undefined;
  let total = 0;
  while (rest.length > 0) {
    const match = PART.exec(rest);
    if (!match) return undefined;
    const [all, whole = "", fraction = "", unit = "s"] = match;
    if (whole === "" && fraction === "") return undefined;
    const scale = UNIT_NS[unit]!;
    total += Number(whole || "0") * scale + (fraction ? Number(`0.${fraction}`) * scale : 0);
    rest = rest.slice(all.length);
  }
  return sign * Math.round(total);
}

function trimFraction(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, "");
}

/** Go's Duration.String(): "0s", "500ms", "1.5s", "1m30s", "1h0m0s". */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return "0s";
  const sign = ns < 0 ? "-" : "";
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${sign}${abs}ns`;
  if (abs < 1e6) return `${sign}${trimFraction(abs / 1e3, 3)}µs`;
  if (abs < 1e9) return `${sign}${trimFraction(abs / 1e6, 6)}ms`;
  const hours = Math.floor(abs / 3600e9);
  const minutes = Math.floor((abs % 3600e9) / 60e9);
  const seconds = trimFraction((abs % 60e9) / 1e9, 9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}
