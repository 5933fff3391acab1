/** @module The schedule condition fires `trigger({kind: "schedule"})` at cron times and renders nothing. */
import { describe, expect, it } from "vitest";
import type { ConsulQuery, QueryWatcher } from "../../../core/plugin-api/mod.ts";
import { eventually, recordingContext } from "../../../core/plugin-testkit/mod.ts";
import scheduleConditionPlugin, { scheduleConditionFactory } from "../../../plugins/condition-schedule/mod.ts";
import { conditionSource } from "./helpers/decoded-source.ts";

/** A schedule must never touch Consul; this watcher records any attempt. */
function refusingWatcher(asked: ConsulQuery[]): QueryWatcher {
  return { subscribe: (query) => (asked.push(query), () => {}) };
}

describe("condition \"schedule\"", () => {
  it("is unbuffered, registered by its plugin and validated before create", () => {
    expect(scheduleConditionPlugin.kind).toBe("condition");
    expect(scheduleConditionFactory.unbuffered).toBe(true);
    expect(() => conditionSource(scheduleConditionFactory, { type: "schedule", cron: "nope" }, "t"))
      .toThrow(/condition\.schedule\.cron: is not a valid cron expression: expected 5, 6 or 7 fields, found 1/);
    expect(() => conditionSource(scheduleConditionFactory, { type: "schedule" }, "t")).toThrow(/cron/);
  });

  it("triggers at every cron time until stopped, without data or Consul queries", async () => {
    const asked: ConsulQuery[] = [];
    const ctx = recordingContext(refusingWatcher(asked));
    const source = conditionSource(scheduleConditionFactory, { type: "schedule", cron: "* * * * * * *" }, "every-second");
    expect(source.variable).toBeUndefined();
    await source.start(ctx);
    expect(ctx.logs.some((l) => l.message === "scheduled task next run time")).toBe(true);
    await eventually(() => ctx.triggers.length >= 2, "two scheduled triggers", 5_000);
    source.stop();
    const fired = ctx.triggers.length;
    expect(ctx.triggers.every((t) => t.kind === "schedule" && t.detail === "* * * * * * *")).toBe(true);
    expect(ctx.published).toEqual([]);
    expect(asked).toEqual([]);
    // After stop no further tick may arrive; wait past one cron period to see that.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(ctx.triggers.length).toBe(fired);
  });

  it("stops when the context's signal aborts", async () => {
    const ctx = recordingContext(refusingWatcher([]));
    const source = conditionSource(scheduleConditionFactory, { type: "schedule", cron: "* * * * * * *" }, "aborted");
    await source.start(ctx);
    ctx.abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(ctx.triggers).toEqual([]);
  });
});
