/**
 * Engine against the embedded Consul server over real HTTP, with the real consul-client and
 * services condition: buffering, coalescing during slow applies, Consul restarts, shared queries.
 */
import { describe, expect, it } from "vitest";
import { recorded } from "../../../harness/driver-recording/mod.ts";
import { startCountingProxy } from "../../../harness/task-engine/counting-proxy.ts";
import { engineConfig, engineSuite, registerInstance, servicesTask, startEngine, waitFor } from "../../../harness/task-engine/engine-harness.ts";

const suite = engineSuite();

const instances = (entry: { input?: { services: object } } | undefined) => Object.keys(entry?.input?.services ?? {}).length;

describe("task engine triggers (real Consul HTTP)", () => {
  it("runs each task once at start-up, then on every change of its rendered input, recording why", async () => {
    await registerInstance(suite.server.url, "alpha", "alpha-1");
    suite.harness = await startEngine({ config: engineConfig(suite.server.address, [servicesTask("t-alpha", ["alpha"])]) });
    const first = await waitFor(() => recorded("apply", "t-alpha")[0], "start-up apply");
    expect(instances(first)).toBe(1);
    await registerInstance(suite.server.url, "alpha", "alpha-2");
    const second = await waitFor(() => recorded("apply", "t-alpha")[1], "apply after change");
    expect(instances(second)).toBe(2);
    await suite.harness.manager.idle();
    const events = suite.harness.manager.get("t-alpha")!.events;
    expect(events.map((event) => event.trigger?.kind)).toEqual(["dependency", "startup"]);
    expect(events[0]!.trigger?.detail).toContain("/v1/health/service/alpha");
    expect(events[0]!.instance_id).toBe("cts-test");
    expect(suite.harness.manager.get("t-alpha")!.status).toBe("successful");
  });

  it("turns 100 rapid registrations inside one buffer period into exactly one run with the final data", async () => {
    const task = servicesTask("t-burst", ["burst"], { buffer_period: { enabled: true, min: 3000, max: 60_000 } });
    suite.harness = await startEngine({ config: engineConfig(suite.server.address, [task]) });
    await waitFor(() => recorded("apply", "t-burst")[0], "start-up apply (never buffered)");
    for (let i = 1; i <= 100; i++) await registerInstance(suite.server.url, "burst", `burst-${i}`);
    const buffered = await waitFor(() => recorded("apply", "t-burst")[1], "buffered apply");
    await suite.harness.manager.idle();
    expect(instances(buffered)).toBe(100);
    expect(recorded("apply", "t-burst").length).toBe(2);
  });

  it("honours the buffer's max deadline while changes never stop", async () => {
    const task = servicesTask("t-stream", ["stream"], { buffer_period: { enabled: true, min: 800, max: 1600 } });
    suite.harness = await startEngine({ config: engineConfig(suite.server.address, [task]) });
    await waitFor(() => recorded("apply", "t-stream")[0], "start-up apply");
    let appliedDuringStream = 0;
    for (let i = 1; i <= 30; i++) {
      await registerInstance(suite.server.url, "stream", `stream-${i}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      appliedDuringStream = recorded("apply", "t-stream").length - 1;
    }
    // Changes every ~100 ms keep resetting the 0.8 s wait: only the 1.6 s deadline can run the task.
    expect(appliedDuringStream).toBeGreaterThanOrEqual(1);
    await waitFor(() => recorded("apply", "t-stream").some((entry) => instances(entry) === 30), "final data applied");
    await suite.harness.manager.idle();
  });

  it("applies a change that arrives during a slow apply right after it, once, with the newest data", async () => {
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("t-slow", ["slow"])]),
      recording: { apply_delay_ms: 1500 },
    });
    await waitFor(() => recorded("apply", "t-slow")[0], "start-up apply");
    await registerInstance(suite.server.url, "slow", "slow-1");
    await waitFor(() => recorded("render", "t-slow")[1], "second run rendered (its apply is now running)");
    expect(suite.harness.manager.get("t-slow")!.running).toBe(true);
    await registerInstance(suite.server.url, "slow", "slow-2");
    await registerInstance(suite.server.url, "slow", "slow-3");
    await waitFor(() => recorded("apply", "t-slow")[2], "follow-up apply");
    await suite.harness.manager.idle();
    const applies = recorded("apply", "t-slow");
    expect(applies.map(instances)).toEqual([0, 1, 3]);
    expect(applies[2]!.start).toBeGreaterThanOrEqual(applies[1]!.end);
  });

  it("keeps applying changes after the Consul server restarts mid-watch", async () => {
    await registerInstance(suite.server.url, "phoenix", "phoenix-1");
    suite.harness = await startEngine({ config: engineConfig(suite.server.address, [servicesTask("t-phoenix", ["phoenix"])]) });
    await waitFor(() => recorded("apply", "t-phoenix")[0], "start-up apply");
    await suite.server.restart();
    await registerInstance(suite.server.url, "phoenix", "phoenix-2");
    await waitFor(() => recorded("apply", "t-phoenix").find((entry) => instances(entry) === 2), "apply after restart");
    await registerInstance(suite.server.url, "phoenix", "phoenix-3");
    await waitFor(() => recorded("apply", "t-phoenix").find((entry) => instances(entry) === 3), "later apply");
  });

  it("shares one blocking query between two tasks watching the same service", async () => {
    const proxy = await startCountingProxy({ hostname: "127.0.0.1", port: suite.server.port });
    try {
      suite.harness = await startEngine({
        config: engineConfig(proxy.address, [servicesTask("t-share-1", ["shared"]), servicesTask("t-share-2", ["shared"])]),
      });
      await waitFor(() => recorded("apply", "t-share-2")[0], "start-up applies");
      for (let i = 1; i <= 3; i++) {
        await registerInstance(suite.server.url, "shared", `shared-${i}`);
        await waitFor(() => recorded("apply", "t-share-1")[i] && recorded("apply", "t-share-2")[i], `both tasks applied change ${i}`);
      }
      expect(suite.harness.watcher.stats().open).toBe(1);
      expect(proxy.maxInFlight("/v1/health/service/shared")).toBe(1);
      // One query answered per change (plus the first fetch and the parked one), not one per task.
      expect(proxy.count("/v1/health/service/shared")).toBeLessThanOrEqual(3 + 2);
    } finally {
      await suite.harness?.stop();
      suite.harness = undefined;
      await proxy.close();
    }
  });

  it("keeps running a healthy task when another task's applies fail", async () => {
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("t-good", ["mixed"])]),
      recording: { fail_tasks: ["t-bad"] },
    });
    await waitFor(() => recorded("apply", "t-good")[0], "start-up apply");
    await suite.harness.manager.create(servicesTask("t-bad", ["mixed"]));
    await registerInstance(suite.server.url, "mixed", "mixed-1");
    await waitFor(() => recorded("apply", "t-good")[1], "healthy task applied the change");
    await suite.harness.manager.idle();
    // Daemon runs retry a failed apply twice, as CTS does.
    expect(recorded("apply", "t-bad").map((entry) => entry.ok)).toEqual([false, false, false]);
    expect(suite.harness.manager.get("t-bad")!.status).toBe("errored");
    expect(suite.harness.manager.get("t-bad")!.events[0]!.error?.message).toContain("configured to fail");
    expect(suite.harness.manager.get("t-good")!.status).toBe("successful");
  });

  it("defers deleting a running task until its run ends, and never triggers it again", async () => {
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [servicesTask("t-doomed", ["doomed"])]),
      recording: { apply_delay_ms: 800 },
    });
    await waitFor(() => recorded("apply", "t-doomed")[0], "start-up apply");
    const run = suite.harness.manager.runNow("t-doomed", { kind: "api" });
    await waitFor(() => suite.harness!.manager.get("t-doomed")!.running, "run in progress");
    await suite.harness.manager.delete("t-doomed");
    const pending = suite.harness.manager.get("t-doomed");
    expect(pending?.deleting).toBe(true);
    expect(pending?.running).toBe(true);
    expect((await run)?.success).toBe(true);
    await suite.harness.manager.idle();
    expect(suite.harness.manager.get("t-doomed")).toBeUndefined();
    await registerInstance(suite.server.url, "doomed", "doomed-1");
    await registerInstance(suite.server.url, "doomed", "doomed-2");
    await suite.harness.manager.idle();
    expect(recorded("apply", "t-doomed").length).toBe(2);
    expect(suite.harness.watcher.stats().open).toBe(0);
  });
});
