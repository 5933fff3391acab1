/**
 * The engine's run records with the driver's output (beyond CTS): a driver plugin ("talking") that
 * tells its output through the run observer, slowly, with colour codes and a known secret. A run in
 * progress leads the first page and is read with its output so far; `run.output` events carry whole
 * lines, cleaned and masked, with byte offsets, and are never retained for replay; the final record
 * keeps the output (bounded by run_history.max_output_bytes), the resources, the outputs (masked)
 * and the phase times; an inspection is a record of its own; old records go without a new run.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  daemonEventsToken, defineService, definePlugin, driverRegistryToken, secretMaskerToken, taskStoreToken, type Driver, type NumberedEvent,
  type RunObserver, type RunRecord, type TaskConfig, type TaskStore,
} from "../../../core/plugin-api/mod.ts";
import { MemoryTaskStore } from "../../../plugins/task-store-memory/src/memory-task-store.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { engineConfig, startEngine, waitFor, type Harness } from "../../../harness/task-engine/engine-harness.ts";

const NEVER = "0 0 1 1 *";
const SECRET = "hunter2-secret-value";

/** Releases the next apply of the talking driver; each apply waits for one call. */
let release: () => void = () => {};

const talkingDriver = definePlugin({
  id: "driver-talking",
  kind: "driver",
  deps: { drivers: driverRegistryToken },
  init({ drivers }) {
    drivers.register({
      name: "talking",
      create(task: TaskConfig): Promise<Driver> {
        let applies = 0;
        const done = () => Promise.resolve();
        return Promise.resolve({
          init: done, render: done, destroy: done, version: () => Promise.resolve("talking 1"),
          async plan(_signal: AbortSignal, observer?: RunObserver) {
            observer?.output("plan", `# module.${task.name}.thing will be created\nPlan: 1 to add\n`);
            return { changesPresent: true, plan: "Plan: 1 to add", resources: [{ address: `module.${task.name}.thing`, action: "create" }], phases_ms: { plan: 5 } };
          },
          async apply(_signal: AbortSignal, observer?: RunObserver) {
            if (applies++ === 0) return {};
            observer?.output("plan", "Plan: 1 to add\n");
            observer?.findings?.({ resources: [{ address: `module.${task.name}.thing`, action: "update" }], phases_ms: { plan: 7 } });
            observer?.output("apply", "\u001b[32mstep 1\u001b[0m\n");
            observer?.output("apply", `token=${SECRET}\n`);
            observer?.output("apply", "partial li");
            observer?.output("apply", "ne\n");
            observer?.output("apply", "x".repeat(3000) + "\n");
            // A second batch after the first was published.
            await new Promise((resolve) => setTimeout(resolve, 400));
            observer?.output("apply", "step 2\n");
            await new Promise<void>((resolve) => (release = resolve));
            observer?.output("apply", "Apply complete!");
            return {
              summary: { add: 0, change: 1, destroy: 0 }, phases_ms: { apply: 9 },
              outputs: { url: { value: `https://x/?t=${SECRET}` }, password: { sensitive: true } },
            };
          },
        });
      },
    });
  },
});

let harness: Harness | undefined;
afterEach(async () => {
  release();
  await harness?.stop();
  harness = undefined;
});

/** An engine with the talking driver; `store` shared between engines plays a store that outlives them. */
async function start(runHistory: Record<string, unknown> = {}, store?: TaskStore): Promise<Harness> {
  const task = testTask("talk", { driver: "talking", condition: { type: "schedule", cron: NEVER } });
  const storePlugin = store && definePlugin({
    id: "task-store-kept", kind: "store", deps: {}, provides: [defineService({ token: taskStoreToken, deps: {}, create: () => store })],
  });
  harness = await startEngine({
    config: engineConfig("127.0.0.1:9", [task], {
      driver: { name: "talking", options: {} },
      plugins: [{ name: "task-engine", source: "builtin:task-engine", options: { run_history: runHistory } }],
    }),
    replace: { "driver-talking": talkingDriver, ...(storePlugin ? { "task-store-memory": storePlugin } : {}) },
  });
  await waitFor(async () => (await harness!.manager.listRuns!("talk", { limit: 5 })).runs.length >= 1, "the start-up run");
  await harness.manager.idle();
  return harness;
}

describe("engine run records with the driver's output", () => {
  it("a run in progress leads the first page and reads live; its output events are whole, clean, masked lines with byte offsets", async () => {
    const { kernel, manager } = await start({ max_output_bytes: 1024 });
    kernel.resolve(secretMaskerToken).add(SECRET, "test");
    const bus = kernel.resolve(daemonEventsToken);
    const events: NumberedEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const running = manager.runNow("talk", { kind: "api", detail: "test" });
    const outputs = () => events.filter((event) => event.type === "run.output") as Extract<NumberedEvent, { type: "run.output" }>[];
    await waitFor(() => outputs().filter((event) => event.phase === "apply").length >= 2 && outputs(), "two batches of output events");

    const page = await manager.listRuns!("talk", { limit: 5 });
    expect(page.total).toBe(2);
    const current = page.runs[0]!;
    expect(current).toMatchObject({ outcome: "running", trigger: { kind: "api", detail: "test" } });
    expect(current.logs).toBeUndefined();
    const live = (await manager.getRun!("talk", current.id))!;
    const applyText = outputs().filter((event) => event.phase === "apply").map((event) => event.text).join("");
    expect(live.logs!.apply!.text.startsWith("step 1\ntoken=<redacted>\npartial line\n")).toBe(true);
    expect(applyText).not.toContain(SECRET);
    expect(applyText).not.toContain("\u001b");
    // Each chunk's offset is the bytes before it; they add up to the live record's count.
    let bytes = 0;
    for (const event of outputs().filter((e) => e.phase === "apply")) {
      expect(event).toMatchObject({ task: "talk", run_id: current.id, offset: bytes });
      expect(event.text.endsWith("\n")).toBe(true);
      bytes += new TextEncoder().encode(event.text).byteLength;
    }
    expect(live.logs!.apply!.bytes).toBe(bytes);
    // Output is live only: a resuming reader gets the state changes, not the lines.
    expect(bus.since(0)!.some((event) => event.type === "run.output")).toBe(false);

    release();
    await running;
    const [final] = (await manager.listRuns!("talk", { limit: 1 })).runs;
    const record = (await manager.getRun!("talk", final!.id))!;
    expect(record).toMatchObject({
      id: current.id, outcome: "applied", plan: { add: 0, change: 1, destroy: 0 },
      resources: [{ address: "module.talk.thing", action: "update" }],
      outputs: { url: { value: "https://x/?t=<redacted>" }, password: { sensitive: true } },
      phases_ms: { plan: 7, apply: 9 },
    });
    // Bounded: the 3 KB line is cut from the middle, and the record says how much went.
    const apply = record.logs!.apply!;
    expect(apply.bytes).toBeGreaterThan(3000);
    expect(apply.omitted_bytes).toBeGreaterThan(1500);
    expect(apply.text).toMatch(/^step 1\ntoken=<redacted>\npartial line\n[\s\S]*bytes of output left out here[\s\S]*Apply complete!$/);
    expect(new TextEncoder().encode(apply.text).byteLength).toBeLessThan(1024 + 200);
    expect(JSON.stringify(record)).not.toContain(SECRET);
    // The event of the run's end carries the summary, never the output.
    const ended = events.find((event) => event.type === "run.ended" && event.run.id === current.id) as Extract<NumberedEvent, { type: "run.started" | "run.ended" }>;
    expect(ended.run.logs).toBeUndefined();
    expect(ended.run.outcome).toBe("applied");
    expect(await manager.outputs!("talk")).toEqual({ run_id: current.id, outputs: record.outputs });
  });

  it("an inspection through the API's enable is a run record of its own: kind inspect, the plan's output and resources", async () => {
    const { manager } = await start();
    const answer = await manager.setEnabled("talk", true, "inspect");
    expect(answer.plan?.changesPresent).toBe(true);
    const record = (await manager.getRun!("talk", answer.runId!))!;
    expect(record).toMatchObject({
      kind: "inspect", outcome: "planned", trigger: { kind: "api", detail: "inspect" }, plan: { add: 1, change: 0, destroy: 0 },
      resources: [{ address: "module.talk.thing", action: "create" }], phases_ms: { plan: 5 },
    });
    expect(record.logs!.plan!.text).toBe("# module.talk.thing will be created\nPlan: 1 to add\n");
    // An inspection is not the task's last run, and changes no outputs.
    expect(manager.get("talk")!.lastRun?.kind).toBeUndefined();
  });

  it("after a restart on the same store, GET task's outputs are read back from the last successful apply's record", async () => {
    const store = new MemoryTaskStore();
    const first = await start({}, store);
    const running = first.manager.runNow("talk", { kind: "api" });
    await waitFor(() => first.manager.get("talk")?.currentRun, "the run in progress");
    await waitFor(async () => {
      release();
      return (await first.manager.listRuns!("talk", { limit: 1 })).runs[0]?.outcome === "applied";
    }, "the apply");
    await running;
    const outputs = await first.manager.outputs!("talk");
    expect(outputs?.outputs).toEqual({ password: { sensitive: true }, url: { value: "https://x/?t=" + SECRET } });
    await first.stop();
    harness = undefined;
    // The new engine's start-up run finds the inputs unchanged and applies nothing: the outputs come from the store.
    const second = await start({}, store);
    expect((await second.manager.listRuns!("talk", { limit: 1 })).runs[0]).toMatchObject({ outcome: "skipped", skip_reason: "unchanged_inputs" });
    expect(await second.manager.outputs!("talk")).toEqual(outputs);
  });

  it("drops records past max_age without waiting for a run", async () => {
    const { manager } = await start({ max_age: "1500ms" });
    const [first] = (await manager.listRuns!("talk", { limit: 5 })).runs as RunRecord[];
    expect(first).toBeDefined();
    await waitFor(async () => (await manager.listRuns!("talk", { limit: 5 })).runs.length === 0, "the old record pruned", 15_000);
    expect(await manager.getRun!("talk", first!.id)).toBeUndefined();
  });
});
