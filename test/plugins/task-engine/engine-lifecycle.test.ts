/** Kernel wiring of the engine and its stop path, with Consul deliberately unreachable. */
import { describe, expect, it } from "vitest";
import { engineConfig, servicesTask, startEngine, waitFor } from "../../../harness/task-engine/engine-harness.ts";

describe("task engine lifecycle", () => {
  it("provides the watcher and task manager, and does nothing in validate mode", async () => {
    const harness = await startEngine({ config: engineConfig("127.0.0.1:1", [servicesTask("a", ["x"])]), mode: "validate" });
    expect(harness.manager.list()).toEqual([]);
    expect(harness.watcher.stats().open).toBe(0);
    await harness.stop();
  });

  it("stops cleanly while a task still waits for its first Consul answer", async () => {
    const harness = await startEngine({ config: engineConfig("127.0.0.1:1", [servicesTask("a", ["x"])]) });
    expect(harness.manager.list().map((task) => task.config.name)).toEqual(["a"]);
    expect(harness.manager.get("a")!.status).toBe("unknown");
    await waitFor(() => harness.watcher.stats().open === 1, "the task's blocking query to open");
    expect(harness.watcher.stats()).toEqual({ open: 1, subscribers: 1 });
    await harness.stop();
    expect(harness.watcher.stats().open).toBe(0);
    expect(harness.exits).toEqual([]);
    expect(harness.logs.some((line) => line.includes("[ERROR]"))).toBe(false);
  });
});
