import { describe, expect, it } from "vitest";
import { DaemonEventBus } from "../../../core/kernel/daemon-event-bus.ts";

const created = (task: string) => ({ type: "task.created", task }) as const;

describe("the daemon event bus", () => {
  it("numbers events in publication order and delivers them to every subscriber", () => {
    const bus = new DaemonEventBus();
    const seen: number[] = [];
    const unsubscribe = bus.subscribe((event) => seen.push(event.id));
    bus.publish(created("a"));
    bus.publish(created("b"));
    unsubscribe();
    bus.publish(created("c"));
    expect(seen).toEqual([1, 2]);
  });

  it("returns the events after an id while they are retained, and undefined once some are gone", () => {
    const bus = new DaemonEventBus(3);
    for (const task of ["a", "b", "c", "d"]) bus.publish(created(task));
    expect(bus.since(2)?.map((event) => event.id)).toEqual([3, 4]);
    expect(bus.since(1)?.map((event) => event.id)).toEqual([2, 3, 4]);
    expect(bus.since(4)).toEqual([]);
    expect(bus.since(0)).toBeUndefined();
  });

  it("keeps delivering to the others when one subscriber throws", () => {
    const bus = new DaemonEventBus();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("broken reader");
    });
    bus.subscribe((event) => seen.push(event.type));
    expect(() => bus.publish(created("a"))).not.toThrow();
    expect(seen).toEqual(["task.created"]);
  });
});
