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
    const guard = new DescriptorGuard(100, () => open);
    const changes: [boolean, number][] = [];
    guard.onEpisode((short, usage) => changes.push([short, usage.open]));
    expect(reserveFor(100)).toBe(24);
    // Near the limit every call counts afresh (far from it a count is reused for 100 ms).
    for (open of [60, 76]) expect(guard.short()).toBe(false);
    for (open of [77, 90, 70, 65]) expect(guard.short()).toBe(true);
    open = 64;
    expect(guard.short()).toBe(false);
    expect(changes).toEqual([[true, 77], [false, 64]]);
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
