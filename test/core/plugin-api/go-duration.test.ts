import { describe, expect, test } from "vitest";
import { formatGoDuration as formatDuration, isGoDuration as isDuration, parseGoDuration as parseDuration } from "../../../core/plugin-api/mod.ts";

describe("parseDuration", () => {
  test.each([
    ["0", 0], ["0s", 0], ["5s", 5_000], ["1m", 60_000], ["1h30m", 5_400_000], ["1m30s", 90_000],
    ["250ms", 250], ["1.5s", 1_500], ["1.1s", 1_100], [".5s", 500], ["1500us", 1.5], ["1µs", 0.001],
    ["2000ns", 0.002], ["-5s", -5_000], ["+5s", 5_000], ["1h1m1s1ms", 3_661_001],
  ])("%s is %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(isDuration(text)).toBe(true);
  });

  test.each(["", "5", "5 s", "5 seconds", "s", "1d", "5S", "1h-30m", "--5s", "abc"])("%j is not a duration", (text) => {
    expect(parseDuration(text)).toBeUndefined();
    expect(isDuration(text)).toBe(false);
  });
});

describe("formatDuration (Go's Duration.String)", () => {
  test.each([
    [0, "0s"], [5_000, "5s"], [20_000, "20s"], [90_000, "1m30s"], [300_000, "5m0s"], [5_400_000, "1h30m0s"],
    [500, "500ms"], [1_500, "1.5s"], [0.0015, "1.5µs"], [0.000_001, "1ns"], [-5_000, "-5s"], [3_661_001, "1h1m1.001s"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  test("round-trips through parseDuration", () => {
    for (const ms of [0, 1, 999, 1_000, 59_999, 61_000, 3_600_000, 86_400_000]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });
});
