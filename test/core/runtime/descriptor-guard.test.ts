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

  it("reuses a count for 100 ms (or 50 times its cost) and for half as many calls as descriptors are left above the reserve", () => {
    let counts = 0;
    let clock = 0;
    let open = 10;
    const guard = new DescriptorGuard(1000, () => (counts++, open), () => clock);
    guard.short(); // counted: 1000 - 10 - 100 (reserve) left, so reused for 445 calls
    for (let call = 0; call < 445; call++) guard.short();
    expect(counts).toBe(1);
    guard.short();
    expect(counts).toBe(2);
    clock = 100;
    guard.short();
    expect(counts).toBe(3);
    open = 896; // 4 left above the reserve: counted every third call
    clock = 200;
    guard.short();
    expect(counts).toBe(4);
    guard.short();
    guard.short();
    expect(counts).toBe(4);
    guard.short();
    expect(counts).toBe(5);
  });

  it("reuses a count that took long for 50 times as long", () => {
    let counts = 0;
    let clock = 0;
    // Counting takes 20 ms on this clock: reused for a second.
    const guard = new DescriptorGuard(100_000, () => (counts++, (clock += 20), 10), () => clock);
    guard.short();
    clock = 990;
    guard.short();
    expect(counts).toBe(1);
    clock = 1000;
    guard.short();
    expect(counts).toBe(2);
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
