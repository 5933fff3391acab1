/**
 * Run modes and the TaskManager against the embedded Consul server over real HTTP:
 * -once and -inspect(-task) exit codes and output, the daemon's fatal start-up pass,
 * create/enable/disable with run=now and run=inspect.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { clearRecordingLog, recorded, recordingLog } from "../../../harness/driver-recording/mod.ts";
import { engineConfig, registerInstance, servicesTask, startEngine, waitFor, type Harness } from "../../../harness/task-engine/engine-harness.ts";

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;
let server: DevServer;
let harness: Harness | undefined;

beforeAll(async () => {
  server = await startConsulDevServer();
  await registerInstance(server.url, "api", "api-1");
  await registerInstance(server.url, "db", "db-1");
});
afterAll(async () => {
  await server?.stop();
});
beforeEach(() => clearRecordingLog());
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const tasks = () => [
  servicesTask("m-api", ["api"]),
  servicesTask("m-db", ["db"]),
  servicesTask("m-off", ["api"], { enabled: false }),
];

describe("-once", () => {
  it("applies every enabled task once in config order and asks to exit 0", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "once" });
    expect(await harness.exited).toEqual({ code: 0, reason: "all tasks completed once" });
    expect(recorded("apply").map((entry) => entry.task)).toEqual(["m-api", "m-db"]);
    // A disabled task is still created and initialised, never applied.
    expect(recorded("init").map((entry) => entry.task)).toEqual(["m-api", "m-db", "m-off"]);
    expect(Object.keys(recordingLog.find((entry) => entry.op === "apply")!.input!.services)).toEqual([expect.stringMatching(/^api-1\./)]);
  });

  it("asks to exit 11 when a task fails, without retrying", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "once", recording: { fail_tasks: ["m-api"] } });
    const exit = await harness.exited;
    expect(exit.code).toBe(11);
    expect(exit.reason).toContain("m-api");
    expect(recorded("apply").map((entry) => `${entry.task}:${entry.ok}`)).toEqual(["m-api:false"]);
  });
});

describe("-inspect", () => {
  it("plans every task, logs the plans at INFO, applies nothing and asks to exit 0", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "inspect" });
    expect((await harness.exited).code).toBe(0);
    expect(recorded("apply")).toEqual([]);
    const results = harness.logs.filter((line) => line.includes("inspection results"));
    expect(results.length).toBe(3);
    expect(results[0]).toMatch(/\[INFO\] .*inspection results.*task_name=m-api/);
    expect(results[0]).toContain("recording plan for m-api: 1 service instance(s)");
  });

  it("-inspect-task plans only the named tasks", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "inspect", inspectTasks: ["m-db"] });
    expect((await harness.exited).code).toBe(0);
    expect(recorded("plan").map((entry) => entry.task)).toEqual(["m-db"]);
  });

  it("-inspect-task with an unknown name asks to exit 15 before planning anything", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "inspect", inspectTasks: ["nope"] });
    const exit = await harness.exited;
    expect(exit.code).toBe(15);
    expect(exit.reason).toContain("nope");
    expect(recorded("plan")).toEqual([]);
  });

  it("asks to exit 11 when a plan fails", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), mode: "inspect", recording: { fail_tasks: ["m-db"] } });
    expect((await harness.exited).code).toBe(11);
  });
});

describe("daemon start-up pass", () => {
  it("asks to exit 11 when a task fails in the start-up pass (as CTS does)", async () => {
    harness = await startEngine({ config: engineConfig(server.address, tasks()), recording: { fail_tasks: ["m-db"] } });
    const exit = await harness.exited;
    expect(exit.code).toBe(11);
    expect(exit.reason).toContain("m-db");
  });
});

describe("TaskManager", () => {
  it("creates tasks with run=inspect (discarded), run=now (kept on success) and no run (waits for a trigger)", async () => {
    harness = await startEngine({ config: engineConfig(server.address, []) });
    const manager = harness.manager;
    const inspected = await manager.create(servicesTask("c-inspect", ["api"]), "inspect");
    expect(inspected.plan?.plan).toContain("1 service instance(s)");
    expect(manager.get("c-inspect")).toBeUndefined();

    const now = await manager.create(servicesTask("c-now", ["api"]), "now");
    expect(now.event?.success).toBe(true);
    expect(now.event?.trigger?.kind).toBe("api");
    expect(manager.get("c-now")?.status).toBe("successful");

    await manager.create(servicesTask("c-later", ["db"]));
    expect(manager.get("c-later")?.status).toBe("unknown");
    expect(recorded("apply", "c-later")).toEqual([]);
    await expect(manager.create(servicesTask("c-later", ["db"]))).rejects.toMatchObject({ code: "CTS_ERR_CONFLICT" });
    await registerInstance(server.url, "db", "db-2");
    await waitFor(() => recorded("apply", "c-later")[0], "apply on the next trigger");
    expect(manager.list().map((task) => task.config.name)).toEqual(["c-now", "c-later"]);
  });

  it("does not keep a task whose run=now apply failed", async () => {
    harness = await startEngine({ config: engineConfig(server.address, []), recording: { fail_tasks: ["c-fail"] } });
    await expect(harness.manager.create(servicesTask("c-fail", ["api"]), "now")).rejects.toMatchObject({ code: "CTS_ERR_TASK" });
    expect(harness.manager.get("c-fail")).toBeUndefined();
    expect(recorded("apply", "c-fail").length).toBe(1);
  });

  it("disables, inspects an enable without persisting it, and enables with run=now", async () => {
    harness = await startEngine({ config: engineConfig(server.address, [servicesTask("e-api", ["api"])]) });
    const manager = harness.manager;
    await waitFor(() => recorded("apply", "e-api")[0], "start-up apply");
    await manager.idle();
    await manager.setEnabled("e-api", false);
    expect(manager.get("e-api")?.config.enabled).toBe(false);
    const inspected = await manager.setEnabled("e-api", true, "inspect");
    expect(inspected.plan?.changesPresent).toBe(true);
    expect(manager.get("e-api")?.config.enabled).toBe(false);
    await manager.setEnabled("e-api", true, "now");
    expect(manager.get("e-api")?.config.enabled).toBe(true);
    expect(recorded("apply", "e-api").length).toBe(2);
    expect(manager.get("e-api")?.events[0]?.trigger).toEqual({ kind: "api", detail: "enable run=now" });
    await expect(manager.setEnabled("missing", true)).rejects.toMatchObject({ code: "CTS_ERR_NOT_FOUND" });
  });

  it("keeps only events_per_task events, newest first", async () => {
    harness = await startEngine({ config: engineConfig(server.address, [servicesTask("ev", ["api"])], { events_per_task: 2 }) });
    await waitFor(() => recorded("apply", "ev")[0], "start-up apply");
    for (let i = 0; i < 3; i++) await harness.manager.runNow("ev", { kind: "api", detail: `run ${i}` });
    const events = harness.manager.get("ev")!.events;
    expect(events.map((event) => event.trigger?.detail)).toEqual(["run 2", "run 1"]);
  });
});

describe("schedule condition with a module input", () => {
  it("records a skipped success event when nothing changed and applies module-input changes on the next tick", async () => {
    const task = servicesTask("s-cron", [], {
      condition: { type: "schedule", cron: "* * * * * * *" },
      module_input: [{ type: "services", names: ["sched"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {} }],
    });
    harness = await startEngine({ config: engineConfig(server.address, [task]) });
    await waitFor(() => recorded("apply", "s-cron")[0], "start-up apply");
    const skipped = await waitFor(() => harness!.manager.get("s-cron")!.events.find((event) => event.trigger?.kind === "schedule"), "a scheduled run");
    expect(skipped).toMatchObject({ success: true, skipped: true });
    // CTS pins: the tick without changes logs "scheduled task triggered but had no changes" (tasks_manager.go).
    expect(harness.logs.join("\n")).toMatch(/tasksmanager: scheduled task triggered but had no changes: task_name=s-cron/);
    expect(recorded("apply", "s-cron").length).toBe(1);
    await registerInstance(server.url, "sched", "sched-1");
    const applied = await waitFor(() => recorded("apply", "s-cron")[1], "scheduled apply of the new data");
    expect(Object.keys(applied.input!.services)).toEqual([expect.stringMatching(/^sched-1\./)]);
    await harness.manager.idle();
    expect(harness.manager.get("s-cron")!.events.find((event) => !event.skipped)?.trigger?.kind).toBe("schedule");
  });
});
