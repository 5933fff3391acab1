/**
 * @module The TaskStore conformance suite: every TaskStore (memory, Consul KV, third-party) must
 * pass it. Call `describeTaskStoreConformance("name", async () => store)` from a test file;
 * `makeStore` must return an empty store (each test gets a fresh one). `sampleTask` and
 * `sampleEvent` build the records it stores, for a store's own further tests.
 */
import { describe, expect, it } from "vitest";
import type { StoredTask, TaskConfig, TaskEvent, TaskStore } from "../../plugin-api/mod.ts";
import { testTask } from "./test-config.ts";

/** A task with every list and map field filled, so a store's round trip is visible. */
export function sampleTask(name: string, overrides: Partial<TaskConfig> = {}): TaskConfig {
  return testTask(name, {
    description: `task ${name}`,
    providers: ["local"],
    module: "./modules/print",
    variables: { greeting: "\"hi\"" },
    ...overrides,
  });
}

export function sampleEvent(task: string, n: number, success = true): TaskEvent {
  const time = new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString();
  return {
    id: `${task}-event-${n}`,
    success,
    start_time: time,
    end_time: time,
    task_name: task,
    error: success ? null : { message: `failure ${n}` },
    config: { providers: ["local"], services: [], source: "./modules/print" },
    trigger: { kind: "dependency", detail: `change ${n}` },
    instance_id: "cts-a",
  };
}

export function describeTaskStoreConformance(name: string, makeStore: () => Promise<TaskStore>): void {
  describe(`TaskStore conformance: ${name}`, () => {
    it("starts empty", async () => {
      const store = await makeStore();
      expect(await store.listTasks()).toEqual([]);
      expect(await store.getTask("missing")).toBeUndefined();
      expect(await store.listEvents("missing")).toEqual([]);
    });

    it("stores, lists in creation order, overwrites and deletes tasks", async () => {
      const store = await makeStore();
      const a: StoredTask = { config: sampleTask("a") };
      const b: StoredTask = { config: sampleTask("b"), lastRun: { fingerprint: "abc123", state: "started" } };
      await store.putTask(a);
      await store.putTask(b);
      expect((await store.listTasks()).map((task) => task.config.name)).toEqual(["a", "b"]);
      expect(await store.getTask("b")).toEqual(b);
      const disabled: StoredTask = { config: sampleTask("a", { enabled: false }), lastRun: { fingerprint: "def", state: "failed" } };
      await store.putTask(disabled);
      expect(await store.getTask("a")).toEqual(disabled);
      expect((await store.listTasks()).length).toBe(2);
      await store.deleteTask("a");
      expect(await store.getTask("a")).toBeUndefined();
      expect((await store.listTasks()).map((task) => task.config.name)).toEqual(["b"]);
    });

    it("round-trips every task field, nested blocks included", async () => {
      const store = await makeStore();
      const config = sampleTask("full", {
        buffer_period: { enabled: true, min: 5000, max: 20000 },
        buffer_period_configured: true,
        module_input: [{ type: "consul-kv", path: "app/cfg", recurse: true, datacenter: "", namespace: "" }],
        variables: { list: "[\"a\", \"b\"]", quoted: "\"x=\\\"y\\\"\"" },
      });
      await store.putTask({ config });
      expect((await store.getTask("full"))?.config).toEqual(config);
    });

    it("keeps events newest first, at most `limit`", async () => {
      const store = await makeStore();
      await store.putTask({ config: sampleTask("t") });
      for (let n = 1; n <= 7; n++) await store.addEvent(sampleEvent("t", n, n % 2 === 0), 5);
      const events = await store.listEvents("t");
      expect(events.map((event) => event.id)).toEqual(["t-event-7", "t-event-6", "t-event-5", "t-event-4", "t-event-3"]);
      expect(events[1]).toEqual(sampleEvent("t", 6, true));
      expect(events[0]!.error).toEqual({ message: "failure 7" });
    });

    it("keeps events apart per task and drops them with the task", async () => {
      const store = await makeStore();
      await store.putTask({ config: sampleTask("x") });
      await store.putTask({ config: sampleTask("y") });
      await store.addEvent(sampleEvent("x", 1), 5);
      await store.addEvent(sampleEvent("y", 2), 5);
      expect((await store.listEvents("x")).map((event) => event.id)).toEqual(["x-event-1"]);
      await store.deleteTask("x");
      expect(await store.listEvents("x")).toEqual([]);
      expect((await store.listEvents("y")).map((event) => event.id)).toEqual(["y-event-2"]);
    });

    it("honours a smaller limit on the next add", async () => {
      const store = await makeStore();
      await store.putTask({ config: sampleTask("t") });
      for (let n = 1; n <= 4; n++) await store.addEvent(sampleEvent("t", n), 10);
      await store.addEvent(sampleEvent("t", 5), 2);
      expect((await store.listEvents("t")).map((event) => event.id)).toEqual(["t-event-5", "t-event-4"]);
    });

    it("does not let callers mutate what is stored", async () => {
      const store = await makeStore();
      await store.putTask({ config: sampleTask("t") });
      const got = await store.getTask("t");
      (got!.config.providers as string[]).push("mutated");
      expect((await store.getTask("t"))!.config.providers).toEqual(["local"]);
    });

    it("reset drops tasks and events", async () => {
      const store = await makeStore();
      await store.putTask({ config: sampleTask("t") });
      await store.addEvent(sampleEvent("t", 1), 5);
      await store.reset();
      expect(await store.listTasks()).toEqual([]);
      expect(await store.listEvents("t")).toEqual([]);
    });
  });
}
