/**
 * The engine's run history with the configured retention (beyond CTS): the real engine, memory store
 * and services condition on the embedded Consul, the recording driver. The engine keeps at most
 * `run_history.max_runs_per_task` records a task (newest), each listing exactly its change; a
 * trigger of a disabled task is a skipped record ("disabled"), and nothing runs.
 */
import { describe, expect, it } from "vitest";
import type { RunRecord, TaskManager } from "../../../core/plugin-api/mod.ts";
import { recorded } from "../../../harness/driver-recording/mod.ts";
import { engineConfig, engineSuite, registerInstance, servicesTask, startEngine, waitFor } from "../../../harness/task-engine/engine-harness.ts";

const suite = engineSuite();

async function runs(manager: TaskManager, task: string): Promise<RunRecord[]> {
  return (await manager.listRuns!(task, { limit: 100 })).runs as RunRecord[];
}

describe("engine run history", () => {
  it("keeps the newest max_runs_per_task records, each with its own change", async () => {
    await registerInstance(suite.server.url, "kept", "kept-1");
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("kept", ["kept"])], {
        plugins: [{ name: "task-engine", source: "builtin:task-engine", options: { run_history: { max_runs_per_task: 3 } } }],
      }),
    });
    const { manager } = suite.harness;
    await waitFor(async () => (await runs(manager, "kept")).length === 1, "the start-up run's record");
    for (let n = 2; n <= 5; n++) {
      await registerInstance(suite.server.url, "kept", `kept-${n}`);
      await waitFor(async () => (await runs(manager, "kept"))[0]?.change.services?.added[0]?.startsWith(`kept-${n}.`), `kept-${n}'s record`);
    }
    const kept = await runs(manager, "kept");
    expect(kept.map((run) => run.change.services!.added.map((id) => id.split(".")[0]))).toEqual([["kept-5"], ["kept-4"], ["kept-3"]]);
    expect(kept.every((run) => run.outcome === "applied" && run.trigger.kind === "dependency")).toBe(true);
  });

  it("records a trigger of a disabled task as skipped (disabled) and runs nothing", async () => {
    await registerInstance(suite.server.url, "off", "off-1");
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("off", ["off"], { enabled: false })]),
    });
    const { manager } = suite.harness;
    // The task is listed before its first data arrives: wait for the pass to end, so off-2 is a change.
    await waitFor(() => suite.harness!.logs.some((line) => line.includes("all tasks ran once")), "the start-up pass");
    await registerInstance(suite.server.url, "off", "off-2");
    const [skipped] = await waitFor(async () => {
      const list = await runs(manager, "off");
      return list.length > 0 ? list : undefined;
    }, "the skipped record");
    expect(skipped).toMatchObject({ task: "off", outcome: "skipped", skip_reason: "disabled", trigger: { kind: "dependency" } });
    expect(recorded("apply", "off")).toEqual([]);
  });
});
