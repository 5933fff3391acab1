/** The descriptor guard's rules (issue 24 item 1), with the open count and the limit given. */
import { describe, expect, it } from "vitest";
import { DescriptorGuard, openFileLimit, reserveFor } from "../../../core/runtime/descriptor-guard.ts";

describe("DescriptorGuard", () => {
  it("reads the soft limit from /proc/self/limits text, and nothing from an unlimited one", () => {
    const limits = "Limit                     Soft Limit           Hard Limit           Units\nMax open files            300                  4096                 files\n";
    expect(openFileLimit(limits)).toBe(300);
    expect(openFileLimit(limits.replace("300 ", "unlimited "))).toBeUndefined();
  });

  it("is short below the reserve, stays short until half a reserve more is free, and tells each change once", () => {
    let open = 0;
    let clock = 0;
    const guard = new DescriptorGuard(100, () => open, () => clock);
    // Each check a minute after the last: no count is reused.
    const shortWith = (value: number) => ((open = value), (clock += 60_000), guard.short());
    const changes: [boolean, number][] = [];
    guard.onEpisode((short, usage) => changes.push([short, usage.open]));
    expect(reserveFor(100)).toBe(24);
    expect([50, 76].map(shortWith)).toEqual([false, false]);
    expect([77, 90, 70, 65].map(shortWith)).toEqual([true, true, true, true]);
    expect(shortWith(64)).toBe(false);
    expect(changes).toEqual([[true, 77], [false, 64]]);
  });

  it("reuses a count for 100 ms far from the limit, and for 50 times its cost (5 ms to 1 s) near it", () => {
    let counts = 0;
    let clock = 0;
    let open = 10;
    // Counting takes 2 ms on this clock.
    const guard = new DescriptorGuard(1000, () => (counts++, (clock += 2), open), () => clock);
    guard.short(); // counted at 0
    clock = 99;
    guard.short();
    expect(counts).toBe(1);
    clock = 100;
    open = 950;
    guard.short(); // counted at 100: near the limit now
    expect(counts).toBe(2);
    clock = 199; // a count that took 2 ms is reused for 100 ms
    guard.short();
    expect(counts).toBe(2);
    clock = 200;
    guard.short();
    expect(counts).toBe(3);
  });

  it("counts a table too full to list itself as full", () => {
    const guard = new DescriptorGuard(100, (full) => full);
    expect(guard.short()).toBe(true);
    expect(guard.roomFor(1)).toBe(false);
  });

  it("never sheds where the limit or the count is unknown", async () => {
    expect(new DescriptorGuard(undefined, () => 10).short()).toBe(false);
    const uncounted = new DescriptorGuard(100, () => undefined);
    expect(uncounted.short()).toBe(false);
    expect(await uncounted.waitForRoom(50, 0)).toBe(true);
  });

  it("waits for room and gives up after its bound", async () => {
    let open = 95;
    const guard = new DescriptorGuard(100, () => open);
    expect(await guard.waitForRoom(12, 0)).toBe(false);
    setTimeout(() => (open = 40), 50);
    expect(await guard.waitForRoom(12, 10_000)).toBe(true);
  });
});
