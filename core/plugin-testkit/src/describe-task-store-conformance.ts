/**
 * @module The TaskStore conformance suite: every TaskStore (memory, Consul KV, third-party) must
 * pass it. Call `describeTaskStoreConformance("name", async () => store)` from a test file;
 * `makeStore` must return an empty store (each test gets a fresh one). `sampleTask` and
 * `sampleEvent` build the records it stores, for a store's own further tests.
 */
import { describe, expect, it } from "vitest";
import type { RunRecord, StoredTask, TaskConfig, TaskEvent, TaskStore } from "@cts-runtime/plugin-api";
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

/** A run record of `task` that started `minutesAgo` minutes before now (ids sort by start time). */
export function sampleRun(task: string, minutesAgo: number, n = 0): RunRecord {
  const started = Date.now() - minutesAgo * 60_000;
  return {
    id: `${String(started).padStart(13, "0")}-${String(n).padStart(8, "0")}`,
    task,
    trigger: { kind: "dependency", detail: "services web" },
    change: { services: { added: ["web-1"], removed: [], changed: [{ id: "web-2", fields: ["address"] }] } },
    outcome: "applied",
    plan: { add: 1, change: 0, destroy: 0 },
    started_at: new Date(started).toISOString(),
    ended_at: new Date(started + 1500).toISOString(),
    duration_ms: 1500,
    instance_id: "cts-a",
  };
}

export interface TaskStoreConformanceOptions {
  /**
   * Whether the store keeps run history (`putRun`, `listRuns`, `getRun`; optional in the contract).
   * @default true
   */
  readonly runHistory?: boolean;
  /**
   * Whether the store drops old records when asked (`pruneRuns`, optional in the contract; without
   * it records past `max_age` stay until the task's next run). @default true
   */
  readonly runPruning?: boolean;
}

export function describeTaskStoreConformance(
  name: string,
  makeStore: () => Promise<TaskStore>,
  options: TaskStoreConformanceOptions = {},
): void {
  if (options.runHistory !== false) describeRunHistoryConformance(name, makeStore, options.runPruning !== false);
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

type HistoryStore = Required<Pick<TaskStore, "putRun" | "listRuns" | "getRun">> & TaskStore;

function describeRunHistoryConformance(name: string, makeStore: () => Promise<TaskStore>, pruning: boolean): void {
  const keep = { maxRunsPerTask: 100, maxAgeMs: 24 * 3600_000 };
  const historyStore = async (): Promise<HistoryStore> => {
    const store = await makeStore();
    expect(typeof store.putRun, "putRun").toBe("function");
    expect(typeof store.listRuns, "listRuns").toBe("function");
    expect(typeof store.getRun, "getRun").toBe("function");
    return store as HistoryStore;
  };

  describe(`TaskStore conformance (run history): ${name}`, () => {
    it("pages records newest first with a before cursor", async () => {
      const store = await historyStore();
      await store.putTask({ config: sampleTask("t") });
      const runs = [5, 4, 3, 2, 1].map((ago, n) => sampleRun("t", ago, n));
      for (const run of runs) await store.putRun(run, keep);
      const first = await store.listRuns("t", { limit: 2 });
      expect(first.runs.map((run) => run.id)).toEqual([runs[4]!.id, runs[3]!.id]);
      expect(first.next).toBe(runs[3]!.id);
      const second = await store.listRuns("t", { limit: 2, before: first.next! });
      expect(second.runs.map((run) => run.id)).toEqual([runs[2]!.id, runs[1]!.id]);
      const last = await store.listRuns("t", { limit: 2, before: second.next! });
      expect(last.runs).toEqual([runs[0]]);
      expect(last.next).toBeUndefined();
      // A total, when the store gives one, counts every record of the task.
      for (const page of [first, second, last]) if (page.total !== undefined) expect(page.total).toBe(5);
      expect(await store.getRun("t", runs[2]!.id)).toEqual(runs[2]);
      expect(await store.getRun("t", "0000000000000-missing")).toBeUndefined();
      expect((await store.listRuns("nothing", { limit: 20 })).runs).toEqual([]);
    });

    it("lists records without their detail and reads one record whole (logs, resources, outputs)", async () => {
      const store = await historyStore();
      const plain = sampleRun("t", 2);
      const detailed: RunRecord = {
        ...sampleRun("t", 1, 1),
        kind: "apply",
        url: "https://app.terraform.io/app/org/workspaces/t/runs/run-1",
        phases_ms: { plan: 1200, apply: 300 },
        logs: { plan: { text: "Plan: 1 to add\n", bytes: 15 }, apply: { text: "Apply complete!\n", bytes: 16 } },
        resources: [{ address: "module.t.terraform_data.a", action: "create" }],
        outputs: { id: { value: ["a", 1] }, password: { sensitive: true } },
      };
      await store.putRun(plain, keep);
      await store.putRun(detailed, keep);
      const { logs, resources, outputs, ...summary } = detailed;
      expect(logs && resources && outputs).toBeTruthy();
      expect((await store.listRuns("t", { limit: 20 })).runs).toEqual([summary, plain]);
      expect(await store.getRun("t", detailed.id)).toEqual(detailed);
    });

    it("replaces a record with the same id (a run that started, then ended)", async () => {
      const store = await historyStore();
      const started = { ...sampleRun("t", 1), outcome: "running" as const };
      await store.putRun(started, keep);
      const ended = { ...started, outcome: "failed" as const, error: "Cannot apply: boom" };
      await store.putRun(ended, keep);
      expect((await store.listRuns("t", { limit: 20 })).runs).toEqual([ended]);
    });

    it("keeps at most maxRunsPerTask records per task, dropping the oldest", async () => {
      const store = await historyStore();
      const runs = Array.from({ length: 6 }, (_, n) => sampleRun("t", 10 - n, n));
      for (const run of runs) await store.putRun(run, { ...keep, maxRunsPerTask: 4 });
      await store.putRun(sampleRun("other", 1), { ...keep, maxRunsPerTask: 4 });
      const kept = await store.listRuns("t", { limit: 100 });
      expect(kept.runs.map((run) => run.id)).toEqual(runs.slice(2).reverse().map((run) => run.id));
      expect(await store.getRun("t", runs[0]!.id)).toBeUndefined();
      expect((await store.listRuns("other", { limit: 100 })).runs).toHaveLength(1);
    });

    it("drops records older than maxAgeMs", async () => {
      const store = await historyStore();
      const old = sampleRun("t", 120);
      const young = sampleRun("t", 5, 1);
      await store.putRun(old, keep);
      await store.putRun(young, { maxRunsPerTask: 100, maxAgeMs: 60 * 60_000 });
      expect((await store.listRuns("t", { limit: 100 })).runs.map((run) => run.id)).toEqual([young.id]);
    });

    it.skipIf(!pruning)("drops records past maxAgeMs when asked (pruneRuns), without a new record", async () => {
      const store = await historyStore();
      expect(typeof store.pruneRuns, "pruneRuns").toBe("function");
      const old = sampleRun("t", 120);
      const young = sampleRun("t", 5, 1);
      await store.putRun(old, keep);
      await store.putRun(young, keep);
      await store.pruneRuns!("t", { maxRunsPerTask: 100, maxAgeMs: 60 * 60_000 });
      expect((await store.listRuns("t", { limit: 100 })).runs.map((run) => run.id)).toEqual([young.id]);
      expect(await store.getRun("t", old.id)).toBeUndefined();
      await store.pruneRuns!("never-ran", keep);
    });

    it("keeps tasks apart (also by name prefix) and drops records with the task and on reset", async () => {
      const store = await historyStore();
      await store.putTask({ config: sampleTask("web") });
      await store.putTask({ config: sampleTask("web-2") });
      await store.putRun(sampleRun("web", 2), keep);
      await store.putRun(sampleRun("web-2", 1), keep);
      expect((await store.listRuns("web", { limit: 100 })).runs.map((run) => run.task)).toEqual(["web"]);
      await store.deleteTask("web");
      expect((await store.listRuns("web", { limit: 100 })).runs).toEqual([]);
      expect((await store.listRuns("web-2", { limit: 100 })).runs).toHaveLength(1);
      await store.reset();
      expect((await store.listRuns("web-2", { limit: 100 })).runs).toEqual([]);
    });
  });
}
