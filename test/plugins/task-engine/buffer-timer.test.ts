import { describe, expect, it } from "vitest";
import { BufferTimer, type Clock } from "../../../plugins/task-engine/src/buffer-timer.ts";

/** A manual clock: time moves only when the test says so. */
function manualClock() {
  let now = 0;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let nextId = 0;
  const clock: Clock = {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((timer) => timer.id !== handle);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((timer) => timer !== due);
      now = due.at;
      due.callback();
    }
    now = until;
  };
  return { clock, advance, now: () => now };
}

describe("BufferTimer", () => {
  it("fires once, min after the last of a burst of changes", () => {
    const { clock, advance, now } = manualClock();
    const fired: number[] = [];
    const timer = new BufferTimer(5000, 20000, () => fired.push(now()), clock);
    for (let i = 0; i < 100; i++) {
      timer.poke();
      advance(10);
    }
    expect(fired).toEqual([]);
    expect(timer.pending).toBe(true);
    advance(5000);
    expect(fired).toEqual([990 + 5000]);
    expect(timer.pending).toBe(false);
  });

  it("never waits past the max deadline under a constant stream", () => {
    const { clock, advance, now } = manualClock();
    const fired: number[] = [];
    const timer = new BufferTimer(5000, 20000, () => fired.push(now()), clock);
    for (let t = 0; t < 50_000; t += 1000) {
      timer.poke();
      advance(1000);
    }
    // Armed at 0 → deadline 20 000; the change at 20 000 (after the fire) re-arms → 40 000.
    expect(fired).toEqual([20000, 40000]);
  });

  it("starts a fresh period after firing and can be cancelled", () => {
    const { clock, advance } = manualClock();
    let fired = 0;
    const timer = new BufferTimer(100, 400, () => fired++, clock);
    timer.poke();
    advance(100);
    expect(fired).toBe(1);
    timer.poke();
    timer.cancel();
    advance(1000);
    expect(fired).toBe(1);
    expect(timer.pending).toBe(false);
  });

  it("treats max below min as min", () => {
    const { clock, advance, now } = manualClock();
    const fired: number[] = [];
    const timer = new BufferTimer(300, 100, () => fired.push(now()), clock);
    timer.poke();
    advance(200);
    timer.poke();
    advance(1000);
    expect(fired).toEqual([300]);
  });
});
