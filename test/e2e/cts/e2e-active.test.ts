/**
 * Port of CTS's TestE2E_TriggerTaskWhenActive and TestE2E_TriggerTaskWhenActiveMultipleTimes
 * (e2e/e2e_test.go, CTS issue 732): changes that arrive while a task's run is in progress run it
 * once more after that run, with Consul's latest data, while another task runs at once. The real
 * daemon, terraform and embedded Consul (empty, as CTS's tests start it); the module sleeps 3 s in
 * its apply. Instead of CTS's fixed sleeps, the tests wait for the module's greeting file, written
 * just before its sleep, to know a run is in progress.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import { deregisterService, eventCount, registerService, startCtsDaemon, waitForEvents, type CtsDaemon } from "./cts-e2e-harness.ts";

const delayedTask = (name: string, service: string) => `
task {
  name = "${name}"
  module = "./test_modules/delayed_module"
  # 3 s where CTS's module defaults to 5: long enough to change Consul during the run.
  variables = {
    delay = "3"
  }
  condition "services" {
    names = ["${service}"]
  }
}
`;

describe("CTS e2e e2e_test.go: triggers while a task is active", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  beforeAll(async () => {
    consul = await startConsulDevServer();
    cts = await startCtsDaemon(consul, delayedTask("active_task", "api") + delayedTask("active_task_multiple", "db") + `
task {
  name = "inactive_task"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["web"]
  }
}
`);
  }, 120_000);
  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  const has = (task: string, id: string) => existsSync(path.join(cts.dir, task, "resources", `${id}.txt`));
  /** Waits until the module's greeting lists `instances` instances: that run is in its sleep. */
  const running = (task: string, instances: number) => waitFor(() => {
    try {
      return readFileSync(path.join(cts.dir, task, "services_greetings.txt"), "utf8").trim().split("\n").filter(Boolean).length === instances;
    } catch {
      return false;
    }
  }, () => `${task} never started a run with ${instances} instance(s)\n${cts.output().slice(-3000)}`);

  it.concurrent("TestE2E_TriggerTaskWhenActive", async () => {
    await registerService(consul, { ID: "api-1", Name: "api" });
    await running("active_task", 1);
    // While active_task's run sleeps: a change for it, and one for another task.
    await registerService(consul, { ID: "api-2", Name: "api" });
    await registerService(consul, { ID: "web-1", Name: "web" });

    // The other task runs without waiting for active_task's run.
    await waitForEvents(cts, "inactive_task", 1);
    expect(await eventCount(cts, "inactive_task")).toBe(2);
    expect(has("inactive_task", "web-1")).toBe(true);

    // The first run ends with what it started with; the change during it runs the task once more.
    await waitForEvents(cts, "active_task", 1);
    expect(await eventCount(cts, "active_task")).toBe(2);
    expect(has("active_task", "api-1")).toBe(true);
    await waitForEvents(cts, "active_task", 2);
    expect(await eventCount(cts, "active_task")).toBe(3);
    expect(has("active_task", "api-1") && has("active_task", "api-2")).toBe(true);

    // A change after the runs still triggers it.
    await registerService(consul, { ID: "api-3", Name: "api" });
    await waitForEvents(cts, "active_task", 3);
    expect(await eventCount(cts, "active_task")).toBe(4);
    expect(["api-1", "api-2", "api-3"].every((id) => has("active_task", id))).toBe(true);
  }, 120_000);

  // CTS's closing check that no further run follows is a timed wait for an absence; not ported.
  it.concurrent("TestE2E_TriggerTaskWhenActiveMultipleTimes", async () => {
    await registerService(consul, { ID: "db-1", Name: "db" });
    await running("active_task_multiple", 1);
    // Several changes during the run: added, removed, another added.
    await registerService(consul, { ID: "db-2", Name: "db" });
    await deregisterService(consul, "db-2");
    await registerService(consul, { ID: "db-3", Name: "db" });

    await waitForEvents(cts, "active_task_multiple", 1);
    expect(await eventCount(cts, "active_task_multiple")).toBe(2);
    expect(has("active_task_multiple", "db-1")).toBe(true);
    expect(has("active_task_multiple", "db-2") || has("active_task_multiple", "db-3")).toBe(false);

    // One more run, with the latest data.
    await waitForEvents(cts, "active_task_multiple", 2);
    expect(await eventCount(cts, "active_task_multiple")).toBe(3);
    expect(has("active_task_multiple", "db-1") && has("active_task_multiple", "db-3")).toBe(true);
    expect(has("active_task_multiple", "db-2")).toBe(false);
  }, 120_000);
});
