/**
 * @module Port of CTS's e2e/condition_schedule_test.go against the real daemon (node dist/main.js),
 * the real terraform and the embedded Consul. CTS starts a daemon per test; here one daemon holds
 * the scheduled tasks of TestCondition_Schedule_Basic (task.services, module_input services,
 * module_input consul-kv), the dynamic task of _Dynamic, and the tasks _CreateAndDeleteCLI,
 * _CreateCLICanceled and _SuppressTriggers_SharedDependencies create through the CLI, so the
 * schedule windows (`*\/10 * * * * * *`) are shared: about three windows of ten seconds in all.
 * "Does not run" after a delete or a cancelled create is checked against a later scheduled run of
 * a remaining task, not a fixed sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  type CtsDaemon, type CtsEvent, deregisterService, putKv, readFile, registerService, startCtsDaemon, waitFor,
} from "./kv-schedule-support.ts";

const CRON = "*/10 * * * * * *";
const SCHEDULE_MS = 10_000;
/** How late after its mark a scheduled run may start on a loaded machine. */
const MARK_TOLERANCE_MS = 2_500;
/** CTS's scheduledWait: the schedule plus a buffer for the run. */
const SCHEDULED_WAIT = SCHEDULE_MS + 15_000;

/** CTS's scheduledConsulKV. */
const scheduledConsulKV = (name: string) => `task {
  name   = "${name}"
  module = "./test_modules/consul_kv_file"
  condition "schedule" {
    cron = "${CRON}"
  }
  module_input "consul-kv" {
    path       = "key-path"
    datacenter = "dc1"
  }
  module_input "services" {
    names = ["web", "api"]
  }
}
`;
/** CTS's scheduledServices. */
const scheduledServices = (name: string) => `task {
  name   = "${name}"
  module = "./test_modules/local_instances_file"
  condition "schedule" {
    cron = "${CRON}"
  }
  module_input "services" {
    regexp = "^web.*|^api.*"
  }
}
`;

const WITH_SERVICES = "scheduled_task";
const WITH_MI_SERVICES = "init_scheduled_task";
const WITH_MI_KV = "scheduled_task_consul_kv";
const DYNAMIC = "e2e_task_api_db";
const CREATED = "created_scheduled_task";
const CANCELED = "scheduled_task_create_canceled";
const SHARED_INIT = "initial_task";
const SHARED_CREATED = "scheduled_cli_w_shared_dep";
/** Its start-up run lasts past a ten-second mark, after the scheduled tasks' start-up runs. */
const SLOW = "slow_start_up_task";
const SCHEDULED = [WITH_SERVICES, WITH_MI_SERVICES, WITH_MI_KV, CREATED, SHARED_CREATED];

describe("CTS e2e condition_schedule_test.go", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  const resource = (task: string, name: string) => readFile(cts.taskPath(task, "resources", `${name}.txt`));
  /** How long after a ten-second mark a run started (CTS checks the rounded second; CI machines lag a little). */
  /** (A timer may also fire a millisecond or so early: that counts as at the mark.) */
  const afterMark = (event: CtsEvent) => ((Date.parse(event.start_time) + 500) % SCHEDULE_MS) - 500;

  /** CTS's checkScheduledRun: the newest run follows the change, the one before it precedes it, ten seconds apart. */
  async function checkScheduledRun(task: string, changedAt: number): Promise<void> {
    const events = await cts.events(task);
    expect(events.length, task).toBeGreaterThanOrEqual(2);
    const [latest, prior] = events.map((event) => Date.parse(event.start_time));
    expect(latest!, `${task}: newest run after the change`).toBeGreaterThan(changedAt);
    expect(prior!, `${task}: previous run before the change`).toBeLessThan(changedAt);
    // CTS: exactly ten seconds apart. A loaded machine may miss a mark, so: a whole number of schedules.
    const apart = latest! - prior!;
    expect(apart, task).toBeGreaterThan(SCHEDULE_MS - MARK_TOLERANCE_MS);
    expect(Math.abs(apart - Math.round(apart / SCHEDULE_MS) * SCHEDULE_MS), task).toBeLessThan(MARK_TOLERANCE_MS);
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await putKv(consul, "key-path", "test");
    cts = await startCtsDaemon(consul, "cts-schedule", `task {
  name     = "${WITH_SERVICES}"
  services = ["api", "web"]
  module   = "./test_modules/local_instances_file"
  condition "schedule" {
    cron = "${CRON}"
  }
}
${scheduledServices(WITH_MI_SERVICES)}
${scheduledConsulKV(WITH_MI_KV)}
task {
  name   = "${DYNAMIC}"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api", "db"]
  }
}
task {
  name   = "${SLOW}"
  module = "./test_modules/sleep_past_mark"
  condition "services" {
    names = ["slow"]
  }
}
task {
  name   = "${SHARED_INIT}"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names               = ["cache"]
    use_as_module_input = true
  }
}
`);
  }, 120_000);

  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  it("tasks created with the CLI: approved ones are created (and run once), a cancelled one is not", async () => {
    // CTS: at most one event (the once phase) before the first scheduled run; the dynamic task ran once.
    // CTS starts the schedules after the once phase, so the tick that passed while SLOW ran is no run.
    for (const task of [WITH_SERVICES, WITH_MI_SERVICES, WITH_MI_KV]) {
      expect((await cts.events(task)).length, task).toBeLessThanOrEqual(1);
    }
    expect(await cts.events(DYNAMIC)).toHaveLength(1);
    const create = async (name: string, hcl: string) => {
      const created = await cts.createTask(hcl);
      expect(created.code, created.stdout + created.stderr).toBe(0);
      expect(created.stdout).toContain(`Task '${name}' created`);
      // CTS: at most one event (the creation's run) before the first scheduled run.
      expect((await cts.events(name)).length, name).toBeLessThanOrEqual(1);
    };
    // _CreateAndDeleteCLI and _SuppressTriggers_SharedDependencies create scheduled tasks ...
    await create(CREATED, scheduledConsulKV(CREATED));
    await create(SHARED_CREATED, `task {
  name   = "${SHARED_CREATED}"
  module = "./test_modules/local_instances_file"
  condition "schedule" {
    cron = "${CRON}"
  }
  module_input "services" {
    names = ["cache"]
  }
}
`);
    // ... _CreateCLICanceled answers no.
    const canceled = await cts.createTask(scheduledConsulKV(CANCELED), "no\n");
    expect(canceled.code, canceled.stdout + canceled.stderr).toBe(0);
    expect(canceled.stdout).toContain("Cancelled creating task");
  }, 60_000);

  it("Basic: scheduled tasks run at the ten-second marks without any change in Consul", async () => {
    const before = Date.now();
    const counts = new Map<string, number>();
    for (const task of SCHEDULED) counts.set(task, (await cts.events(task)).length);
    for (const task of SCHEDULED) {
      const event = await cts.waitForEvent(task, before, SCHEDULED_WAIT);
      expect(event.success, cts.output().slice(-4000)).toBe(true);
      expect(afterMark(event), `${task} started at ${event.start_time}`).toBeLessThan(MARK_TOLERANCE_MS);
      expect((await cts.events(task)).length, task).toBe(counts.get(task)! + 1);
    }
  }, 60_000);

  it("Basic/Dynamic/SharedDependencies: Consul changes run the dynamic tasks at once and the scheduled ones only on schedule", async () => {
    // The scheduled tasks have just run (previous test): change their data now.
    const changedAt = Date.now();
    const dynamicBefore = (await cts.events(DYNAMIC)).length;
    await registerService(consul, { id: "web-1", name: "web", address: "10.0.0.2" });
    await registerService(consul, { id: "api-1", name: "api", address: "10.0.0.1" });
    await registerService(consul, { id: "cache", name: "cache", address: "10.0.0.3" });
    await putKv(consul, "key-path", "red");

    // _Dynamic: api-1 runs the services task at once, once (web-1 is not its business).
    const dynamic = await cts.waitForEvent(DYNAMIC, changedAt);
    expect(await cts.events(DYNAMIC)).toHaveLength(dynamicBefore + 1);
    // _SuppressTriggers_SharedDependencies: cache runs the services-condition task at once.
    const shared = await cts.waitForEvent(SHARED_INIT, changedAt);
    expect(resource(SHARED_INIT, "cache")).toBe("10.0.0.3");

    for (const task of SCHEDULED) {
      const event = await cts.waitForEvent(task, changedAt, SCHEDULED_WAIT);
      expect(event.success, cts.output().slice(-4000)).toBe(true);
      await checkScheduledRun(task, changedAt);
      // The dynamic runs did not wait for the schedule.
      expect(Date.parse(dynamic.start_time)).toBeLessThan(Date.parse(event.start_time));
      expect(Date.parse(shared.start_time)).toBeLessThan(Date.parse(event.start_time));
    }
    for (const task of [WITH_SERVICES, WITH_MI_SERVICES, WITH_MI_KV, CREATED]) {
      expect([resource(task, "api-1"), resource(task, "web-1")], task).toEqual(["10.0.0.1", "10.0.0.2"]);
    }
    for (const task of [WITH_MI_KV, CREATED]) expect(resource(task, "key-path"), task).toBe("red");
    expect(resource(SHARED_CREATED, "cache")).toBe("10.0.0.3");
    expect(resource(DYNAMIC, "api-1")).toBe("10.0.0.1");
    expect(resource(DYNAMIC, "web-1")).toBeUndefined();
  }, 60_000);

  it("CreateAndDeleteCLI: deleted scheduled tasks are gone and no longer run; the cancelled one never ran", async () => {
    for (const task of [CREATED, WITH_MI_SERVICES]) {
      const deleted = await cts.cli(["task", "delete", "-auto-approve", task]);
      expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0);
      expect(deleted.stdout).toContain(`Task '${task}' has been marked for deletion`);
    }
    // CTS: the delete is asynchronous; the status turns 404.
    for (const task of [CREATED, WITH_MI_SERVICES]) {
      await waitFor(async () => (await cts.statusCode(task)) === 404, () => `${task} still there\n${cts.output().slice(-3000)}`);
    }
    const changedAt = Date.now();
    await registerService(consul, { id: "api-2", name: "api", address: "10.0.0.9" });
    await deregisterService(consul, "web-1");
    await deregisterService(consul, "api-1");
    // Instead of CTS's fixed wait: a remaining scheduled task has run on the data since.
    await cts.waitForEvent(WITH_SERVICES, changedAt, SCHEDULED_WAIT);
    expect(resource(WITH_SERVICES, "api-2")).toBe("10.0.0.9");
    for (const task of [CREATED, WITH_MI_SERVICES]) {
      expect(await cts.statusCode(task), task).toBe(404);
      expect([resource(task, "api-1"), resource(task, "web-1"), resource(task, "api-2")], task)
        .toEqual(["10.0.0.1", "10.0.0.2", undefined]);
    }
    // _CreateCLICanceled: no task, no resources, after scheduled windows went by.
    expect(await cts.statusCode(CANCELED)).toBe(404);
    expect(resource(CANCELED, "api-1")).toBeUndefined();
    expect(resource(CANCELED, "key-path")).toBeUndefined();
  }, 60_000);
});
