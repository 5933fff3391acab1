/**
 * The skip rule ("run only when something the task watches changed") against the embedded Consul
 * over real HTTP, with the real condition plugins and the recording driver: a condition's own data
 * triggers runs even when it is not a module input, and a skip needs a successful last run.
 */
import { describe, expect, it } from "vitest";
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { recorded } from "../../../harness/driver-recording/mod.ts";
import {
  deregisterInstance, engineConfig, engineSuite, registerInstance, servicesTask, startEngine, waitFor,
} from "../../../harness/task-engine/engine-harness.ts";

const suite = engineSuite();

const putKey = async (key: string, value: string) => {
  const response = await fetch(`${suite.server.url}/v1/kv/${key}`, { method: "PUT", body: value });
  if (!response.ok) throw new Error(`put ${key}: ${response.status}`);
};

/** Starts one task, waits for its start-up apply, makes `change`, and expects a second apply. */
async function expectRunOnChange(task: TaskConfig, change: () => Promise<void>): Promise<void> {
  suite.harness = await startEngine({ config: engineConfig(suite.server.address, [task]) });
  await waitFor(() => recorded("apply", task.name)[0], "start-up apply");
  await suite.harness.manager.idle();
  await change();
  await waitFor(() => recorded("apply", task.name)[1], "apply after the condition's data changed");
  await suite.harness.manager.idle();
  const events = suite.harness.manager.get(task.name)!.events;
  expect(events.map((event) => [event.trigger?.kind, event.success, event.skipped ?? false])).toEqual([
    ["dependency", true, false],
    ["startup", true, false],
  ]);
}

describe("a condition not used as module input still triggers runs", () => {
  // CTS pins: with use_as_module_input = false the condition's query stays in the task's template
  // (an empty-rendering block, templates/tftmpl), so a change of its data re-renders and runs the task.
  it("services condition", async () => {
    const base = servicesTask("quiet-services", ["quiet"]);
    const task = { ...base, condition: { ...base.condition, use_as_module_input: false } } as TaskConfig;
    await registerInstance(suite.server.url, "quiet", "quiet-1");
    await expectRunOnChange(task, () => registerInstance(suite.server.url, "quiet", "quiet-2"));
    // Nothing of the condition reaches the module: only the run itself tells the change.
    expect(recorded("apply", task.name).map((entry) => entry.input?.services)).toEqual([{}, {}]);
  });

  it("consul-kv condition", async () => {
    const task = servicesTask("quiet-kv", [], {
      condition: { type: "consul-kv", path: "quiet/flag", recurse: false, datacenter: "", namespace: "", use_as_module_input: false },
    });
    await putKey("quiet/flag", "one");
    await expectRunOnChange(task, () => putKey("quiet/flag", "two"));
    expect(recorded("apply", task.name).map((entry) => entry.input?.consul_kv)).toEqual([undefined, undefined]);
  });

  it("catalog-services condition", async () => {
    const task = servicesTask("quiet-catalog", [], {
      condition: { type: "catalog-services", regexp: "^qcat", datacenter: "", namespace: "", node_meta: {}, use_as_module_input: false },
    });
    await registerInstance(suite.server.url, "qcat-a", "qcat-a-1");
    await expectRunOnChange(task, () => registerInstance(suite.server.url, "qcat-b", "qcat-b-1"));
    expect(recorded("apply", task.name).map((entry) => entry.input?.catalog_services)).toEqual([undefined, undefined]);
  });
});

describe("a skip needs a successful last run with exactly these inputs", () => {
  // CTS pins: CTS applies whenever the task's template re-renders, and a change back to earlier data
  // re-renders it; so after failed runs the task is applied again, never left half-applied.
  it("after a failed run, a change back to the inputs of the last successful apply runs again", async () => {
    await registerInstance(suite.server.url, "flaky", "flaky-good");
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("flaky", ["flaky"])]),
      recording: { fail_instances: ["flaky-bad"] },
    });
    const first = await waitFor(() => recorded("apply", "flaky")[0], "start-up apply");
    expect(first.ok).toBe(true);
    await suite.harness.manager.idle();

    await registerInstance(suite.server.url, "flaky", "flaky-bad");
    await waitFor(() => suite.harness!.manager.get("flaky")!.events[0]?.success === false, "the failed run");
    await suite.harness.manager.idle();
    expect(recorded("apply", "flaky").slice(1).every((entry) => !entry.ok)).toBe(true);

    await deregisterInstance(suite.server.url, "flaky-bad");
    await waitFor(() => suite.harness!.manager.get("flaky")!.status === "successful", "a successful run on the earlier inputs");
    await suite.harness.manager.idle();
    const last = recorded("apply", "flaky").at(-1)!;
    expect(last.ok).toBe(true);
    expect(Object.values(last.input!.services).map((instance) => instance.id)).toEqual(["flaky-good"]);
    expect(suite.harness.manager.get("flaky")!.events[0]).toMatchObject({ success: true, trigger: { kind: "dependency" } });
    expect(suite.harness.manager.get("flaky")!.events[0]!.skipped).toBeUndefined();
  });
});

describe("a scheduled task after a failed run", () => {
  // CTS pins: a schedule tick without changes only records "no changes" (kept: see engine-modes); the
  // tick after a failure is not such a tick here, since the last run did not apply these inputs.
  it("applies the inputs of the last success again on its next tick instead of recording a skip", async () => {
    await registerInstance(suite.server.url, "sched-flaky", "sched-good");
    const task = servicesTask("s-flaky", [], {
      condition: { type: "schedule", cron: "* * * * * * *" },
      module_input: [{ type: "services", names: ["sched-flaky"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {} }],
    });
    // Enough events kept that the failure is still listed when the test reads them.
    const config = engineConfig(suite.server.address, [task], { events_per_task: 100 });
    suite.harness = await startEngine({ config, recording: { fail_instances: ["sched-bad"] } });
    await waitFor(() => recorded("apply", "s-flaky")[0]?.ok, "start-up apply");
    await registerInstance(suite.server.url, "sched-flaky", "sched-bad");
    await waitFor(() => recorded("apply", "s-flaky").some((entry) => !entry.ok), "a failed scheduled apply");
    await deregisterInstance(suite.server.url, "sched-bad");
    const reapplied = await waitFor(() => recorded("apply", "s-flaky").find((entry, index) =>
      index > 0 && entry.ok && Object.values(entry.input!.services).every((instance) => instance.id === "sched-good")),
      "a scheduled apply of the earlier inputs");
    expect(reapplied.ok).toBe(true);
    await suite.harness.manager.idle();
    const events = suite.harness.manager.get("s-flaky")!.events;
    // Every event newer than the failure is a real apply until one succeeds: no skip hides the failure.
    const sinceFailure = events.slice(0, events.findIndex((event) => !event.success));
    expect(sinceFailure.at(-1)).toMatchObject({ success: true, trigger: { kind: "schedule" } });
    expect(sinceFailure.at(-1)!.skipped).toBeUndefined();
  });
});
