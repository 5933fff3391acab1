/**
 * Rendezvous hashing for the shared cluster mode (issue 16, item 2): the same members always give
 * the same owner, a joining member takes tasks only for itself, a leaving member's tasks are the
 * only ones that move, and tasks spread over the members.
 */
import { describe, expect, it } from "vitest";
import { rendezvousOwner } from "../../../plugins/ha-consul/src/rendezvous.ts";

const tasks = Array.from({ length: 1000 }, (_, i) => `task-${i}`);
const owners = (members: readonly string[]) => new Map(tasks.map((task) => [task, rendezvousOwner(task, members)]));

describe("rendezvousOwner", () => {
  it("does not depend on the members' order", () => {
    expect(owners(["a", "b", "c"])).toEqual(owners(["c", "a", "b"]));
  });

  it("moves tasks only to a member that joins", () => {
    const before = owners(["a", "b", "c"]);
    const after = owners(["a", "b", "c", "d"]);
    const moved = tasks.filter((task) => before.get(task) !== after.get(task));
    expect(moved.every((task) => after.get(task) === "d")).toBe(true);
    expect(moved.length).toBe(tasks.filter((task) => after.get(task) === "d").length);
  });

  it("moves only a leaving member's tasks", () => {
    const before = owners(["a", "b", "c", "d"]);
    const after = owners(["a", "c", "d"]);
    for (const task of tasks) if (before.get(task) !== "b") expect(after.get(task)).toBe(before.get(task));
  });

  it("spreads the tasks over every member", () => {
    const counts = new Map<string, number>();
    for (const owner of owners(["a", "b", "c", "d"]).values()) counts.set(owner!, (counts.get(owner!) ?? 0) + 1);
    for (const member of ["a", "b", "c", "d"]) expect(counts.get(member)).toBeGreaterThan(150);
  });

  it("has no owner without members", () => {
    expect(rendezvousOwner("t", [])).toBeUndefined();
  });
});
