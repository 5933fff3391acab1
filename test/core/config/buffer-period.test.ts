import { describe, expect, test } from "vitest";
import {
  DEFAULT_BUFFER_PERIOD, isBufferPeriodConfigured, negativeBufferFields, resolveBufferPeriod,
} from "../../../core/config/buffer-period.ts";

const parent = { enabled: true, min: 10_000, max: 30_000 };
const disabledParent = { enabled: false, min: 0, max: 0 };

describe("resolveBufferPeriod (CTS §1.3)", () => {
  test("no block or an empty block copies the parent", () => {
    expect(resolveBufferPeriod(undefined, parent)).toEqual(parent);
    expect(resolveBufferPeriod({}, parent)).toEqual(parent);
    expect(resolveBufferPeriod(undefined, disabledParent)).toEqual(disabledParent);
  });

  test("enabled = false disables with 0/0, whatever else is set", () => {
    expect(resolveBufferPeriod({ enabled: false, min: "3s" }, parent)).toEqual({ enabled: false, min: 0, max: 0 });
  });

  test("min missing: the parent's min when the parent is enabled, else 5s; max missing: 4 × min", () => {
    expect(resolveBufferPeriod({ enabled: true }, parent)).toEqual({ enabled: true, min: 10_000, max: 40_000 });
    expect(resolveBufferPeriod({ enabled: true }, disabledParent)).toEqual({ enabled: true, min: 5_000, max: 20_000 });
    expect(resolveBufferPeriod({ min: "2s" }, parent)).toEqual({ enabled: true, min: 2_000, max: 8_000 });
    expect(resolveBufferPeriod({ max: "1m" }, disabledParent)).toEqual({ enabled: true, min: 5_000, max: 60_000 });
  });

  test("max below min is raised to min", () => {
    expect(resolveBufferPeriod({ min: "30s", max: "10s" }, parent)).toEqual({ enabled: true, min: 30_000, max: 30_000 });
  });

  test("the global block resolves against the built-in default 5s/20s", () => {
    expect(resolveBufferPeriod(undefined, DEFAULT_BUFFER_PERIOD)).toEqual({ enabled: true, min: 5_000, max: 20_000 });
    expect(resolveBufferPeriod({ min: "1s" }, DEFAULT_BUFFER_PERIOD)).toEqual({ enabled: true, min: 1_000, max: 4_000 });
  });

  test("configured and negative detection", () => {
    expect(isBufferPeriodConfigured(undefined)).toBe(false);
    expect(isBufferPeriodConfigured({})).toBe(false);
    expect(isBufferPeriodConfigured({ enabled: true })).toBe(true);
    expect(negativeBufferFields({ min: "-1s", max: "2s" })).toEqual(["min"]);
    expect(negativeBufferFields({ min: "1s" })).toEqual([]);
  });
});
