import { describe, expect, it } from "vitest";
import { DaemonEventBus } from "../../../core/kernel/daemon-event-bus.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";

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

  it("masks known secrets in an event before keeping or delivering it, whoever published it", () => {
    const secrets = new SecretList();
    secrets.add("hunter2-secret", "test");
    const bus = new DaemonEventBus(10, secrets);
    const seen: unknown[] = [];
    bus.subscribe((event) => seen.push(event));
    bus.publish({ type: "consul.connection", state: "lost", error: "403: token hunter2-secret denied" });
    expect(seen).toEqual([expect.objectContaining({ error: "403: token <redacted> denied" })]);
    expect(JSON.stringify(bus.since(0))).not.toContain("hunter2-secret");
  });
});
