/**
 * Issue 24 item 4 (beyond CTS): a failed run is retried under the engine's retry policy, the same for
 * every driver. The real engine, memory store and services condition on the embedded Consul; a driver
 * whose render fails while a task is in `broken` (as an unwritable working directory or a full disk
 * makes Terraform's fail). On main a failed run waited for the next Consul change. Also pins CTS's
 * behaviour, `retry = { max_retries = 0 }`: the failed run waits for the next change.
 */
import { describe, expect, it } from "vitest";
import {
  CtsError, definePlugin, driverRegistryToken, type Driver, type RunRecord, type TaskManager,
} from "../../../core/plugin-api/mod.ts";
import { engineConfig, engineSuite, registerInstance, servicesTask, startEngine, waitFor } from "../../../harness/task-engine/engine-harness.ts";

const suite = engineSuite();
/** Tasks whose render fails now. */
const broken = new Set<string>();
const applied: string[] = [];

const flakyDriver = definePlugin({
  id: "driver-flaky",
  kind: "driver",
  deps: { drivers: driverRegistryToken },
  init({ drivers }) {
    drivers.register({
      name: "flaky",
      create(task): Promise<Driver> {
        return Promise.resolve({
          init: async () => {},
          render: async () => {
            if (broken.has(task.name)) throw new CtsError("CTS_ERR_DRIVER", `Cannot render task "${task.name}": its directory cannot be written`);
          },
          plan: async () => ({ changesPresent: true, plan: "" }),
          apply: async () => void applied.push(task.name),
          destroy: async () => {},
          version: async () => "flaky 1",
        });
      },
    });
  },
});

async function start(task: string, retry: Record<string, unknown>): Promise<TaskManager> {
  await registerInstance(suite.server.url, task, `${task}-1`);
  suite.harness = await startEngine({
    config: engineConfig(suite.server.address, [servicesTask(task, [task], { driver: "flaky" })], {
      driver: { name: "flaky", options: {} },
      plugins: [{ name: "task-engine", source: "builtin:task-engine", options: { retry } }],
    }),
    replace: { "driver-flaky": flakyDriver },
  });
  const manager = suite.harness.manager;
  await waitFor(() => suite.harness!.logs.some((line) => line.includes("all tasks ran once")), "the start-up pass");
  return manager;
}

async function runs(manager: TaskManager, task: string): Promise<RunRecord[]> {
  return [...(await manager.listRuns!(task, { limit: 100 })).runs].reverse();
}

const summary = (list: readonly RunRecord[]) => list.map((run) => `${run.trigger.kind}:${run.outcome}`);

describe("retrying failed runs", () => {
  it("retries a failed run with no new change, each try a record with the reason retry and the previous error", async () => {
    const manager = await start("heals", { max_retries: 5, backoff: "50ms", max_backoff: "100ms" });
    broken.add("heals");
    await registerInstance(suite.server.url, "heals", "heals-2");
    await waitFor(async () => (await runs(manager, "heals")).some((run) => run.outcome === "failed"), "the failed run");
    broken.delete("heals");
    const list = await waitFor(async () => {
      const all = await runs(manager, "heals");
      return all.at(-1)?.outcome === "applied" && all.at(-1)?.trigger.kind === "retry" ? all : undefined;
    }, "the retry that applies");
    const [first, failed, ...retries] = list;
    expect(first).toMatchObject({ trigger: { kind: "startup" }, outcome: "applied" });
    expect(failed).toMatchObject({ trigger: { kind: "dependency" }, outcome: "failed", error: 'Cannot render task "heals": its directory cannot be written' });
    expect(retries.length).toBeGreaterThanOrEqual(1);
    retries.forEach((retry, n) => {
      expect(retry.trigger).toEqual({ kind: "retry", detail: `retry ${n + 1} of 5` });
      expect(retry.previous_error).toBe('Cannot render task "heals": its directory cannot be written');
    });
    // One CTS event for the failure and one for the success: a retry is another try at the same change.
    const events = manager.get("heals")!.events;
    expect(events.map((event) => event.success)).toEqual([true, false, true]);
    expect(manager.get("heals")!.status).toBe("successful");
  });

  it("stops after max_retries; the task stays errored, not critical, until its next change", async () => {
    const manager = await start("stays", { max_retries: 2, backoff: "20ms", max_backoff: "40ms" });
    broken.add("stays");
    await registerInstance(suite.server.url, "stays", "stays-2");
    await waitFor(() => suite.harness!.logs.some((line) => line.includes("retries are spent")), "the spent retries");
    expect(summary(await runs(manager, "stays"))).toEqual(["startup:applied", "dependency:failed", "retry:failed", "retry:failed"]);
    expect(manager.get("stays")!.status).toBe("errored");
    broken.delete("stays");
    await registerInstance(suite.server.url, "stays", "stays-3");
    await waitFor(async () => (await runs(manager, "stays")).at(-1)?.outcome === "applied", "the next change's run");
    expect(summary(await runs(manager, "stays")).at(-1)).toBe("dependency:applied");
  });

  it("a new change supersedes a pending retry: it runs at once, and the retry is dropped", async () => {
    const manager = await start("superseded", { max_retries: 3, backoff: "1h" });
    broken.add("superseded");
    await registerInstance(suite.server.url, "superseded", "superseded-2");
    await waitFor(() => suite.harness!.logs.some((line) => line.includes("run failed; it will be retried")), "the scheduled retry");
    broken.delete("superseded");
    await registerInstance(suite.server.url, "superseded", "superseded-3");
    await waitFor(async () => (await runs(manager, "superseded")).at(-1)?.outcome === "applied", "the change's run");
    expect(summary(await runs(manager, "superseded"))).toEqual(["startup:applied", "dependency:failed", "dependency:applied"]);
    expect(suite.harness!.logs.filter((line) => line.includes("pending retry superseded by a new run"))).toHaveLength(1);
  });

  it("CTS's behaviour with max_retries = 0: a failed run waits for the next change", async () => {
    // A retry, if one were made, would come 10 ms after the failure: long before the next change below.
    const manager = await start("cts", { max_retries: 0, backoff: "10ms" });
    broken.add("cts");
    await registerInstance(suite.server.url, "cts", "cts-2");
    await waitFor(async () => (await runs(manager, "cts")).at(-1)?.outcome === "failed", "the failed run");
    broken.delete("cts");
    await registerInstance(suite.server.url, "cts", "cts-3");
    await waitFor(async () => (await runs(manager, "cts")).at(-1)?.outcome === "applied", "the next change's run");
    expect(summary(await runs(manager, "cts"))).toEqual(["startup:applied", "dependency:failed", "dependency:applied"]);
    expect(suite.harness!.logs.some((line) => line.includes("retried"))).toBe(false);
  });
});
