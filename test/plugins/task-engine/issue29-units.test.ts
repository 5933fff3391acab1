/**
 * Issue 29's pure parts: a drift check, destroy or update never overlaps a run (RunQueue.exclusive),
 * drift settings merged over the engine's default, the Terraform JSON plan read by address and
 * action (resource_drift from a refresh-only plan, resource_changes from a normal one), and which
 * PATCH bodies are CTS's and which are task updates.
 */
import { describe, expect, it } from "vitest";
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { RunQueue, type RunRequest } from "../../../plugins/task-engine/src/run-queue.ts";
import { driftSettingsOf } from "../../../plugins/task-engine/src/drift-settings.ts";
import { appliesSame } from "../../../plugins/task-engine/src/task-update.ts";
import { mergeResourceChanges, resourceAction, resourceChangesOf } from "../../../core/plugin-api/mod.ts";
import { isTaskUpdateBody, mergeTaskFields, unsupportedKeys } from "../../../plugins/http-api/src/routes/task-update.ts";
import { weakEnabled } from "../../../plugins/http-api/src/routes/weak-enabled.ts";
import { updateBody } from "../../../core/cli/commands/task-update.ts";

const dep: RunRequest = { reason: { kind: "dependency" }, force: false, retries: false };
const task = (extra: Partial<TaskConfig> = {}) => ({ name: "t", module: "m", enabled: true, ...extra }) as TaskConfig;

describe("RunQueue.exclusive", () => {
  it("waits for the run in progress, and runs requested meanwhile wait for it", async () => {
    const order: string[] = [];
    let releaseRun!: () => void;
    const queue = new RunQueue(async () => {
      order.push("run start");
      await new Promise<void>((resolve) => (releaseRun = resolve));
      order.push("run end");
      return 1;
    });
    const first = queue.request(dep);
    await Promise.resolve();
    let releaseWork!: () => void;
    const work = queue.exclusive(async () => {
      order.push("exclusive start");
      await new Promise<void>((resolve) => (releaseWork = resolve));
      order.push("exclusive end");
      return "done";
    });
    const second = queue.request(dep);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(["run start"]);
    releaseRun();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(["run start", "run end", "exclusive start"]);
    expect(queue.running).toBe(false);
    expect(queue.busy).toBe(true);
    releaseWork();
    expect(await work).toBe("done");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order.slice(3)).toEqual(["exclusive end", "run start"]);
    releaseRun();
    expect(await second).toBe(1);
    await queue.whenIdle();
    expect(queue.busy).toBe(false);
  });

  it("whenIdle waits for exclusive work; a throwing work releases the queue", async () => {
    const queue = new RunQueue(async () => 1);
    let release!: () => void;
    const work = queue.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    let idle = false;
    void queue.whenIdle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(idle).toBe(false);
    release();
    await work;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(idle).toBe(true);
    await expect(queue.exclusive(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await queue.request(dep)).toBe(1);
  });
});

describe("drift settings", () => {
  it("are off by default; a task's block turns them on and overrides the default field by field", () => {
    expect(driftSettingsOf(task(), undefined).enabled).toBe(false);
    const own = driftSettingsOf(task({ drift_detection: { interval: "5s" } }), { enabled: false, auto_correct: true });
    expect(own).toMatchObject({ enabled: true, autoCorrect: true, describe: "every 5s" });
    expect(own.next(1000)).toBe(6000);
    const inherited = driftSettingsOf(task(), { enabled: true, auto_correct: false, interval: "2m" });
    expect(inherited).toMatchObject({ enabled: true, autoCorrect: false, describe: "every 2m" });
    expect(driftSettingsOf(task({ drift_detection: { enabled: false } }), { enabled: true, auto_correct: false }).enabled).toBe(false);
    const cron = driftSettingsOf(task({ drift_detection: { cron: "0 * * * *" } }), { enabled: false, auto_correct: false, interval: "1s" });
    expect(cron.describe).toBe("cron 0 * * * *");
    expect(cron.next(Date.parse("2026-01-01T10:15:00Z"))).toBe(Date.parse("2026-01-01T11:00:00Z"));
  });

  it("an update that changes only scheduling fields applies the same thing", () => {
    expect(appliesSame(task(), task({ enabled: false, drift_detection: { interval: "1s" } }))).toBe(true);
    expect(appliesSame(task(), task({ variables: { a: "1" } }))).toBe(false);
  });
});

describe("drift plans read by address and action", () => {
  it("reads resource_drift and resource_changes; a replace is one action; no-op and read are none", () => {
    expect(resourceAction(["delete", "create"])).toBe("replace");
    expect(resourceAction(["create", "delete"])).toBe("replace");
    expect(resourceAction(["no-op"])).toBeUndefined();
    expect(resourceChangesOf([{ address: "data.x.y", change: { actions: ["read"] } }], { reads: false })).toEqual([]);
    // As `terraform show -json` writes a refresh-only plan of a resource changed outside Terraform.
    const refreshOnly = {
      resource_drift: [
        { address: "module.web.aws_security_group.allow", change: { actions: ["update"] } },
        { address: "module.web.aws_instance.gone", change: { actions: ["delete"] } },
      ],
      resource_changes: [{ address: "module.web.aws_security_group.allow", change: { actions: ["no-op"] } }],
    };
    const drifted = resourceChangesOf(refreshOnly.resource_drift, { reads: false });
    expect(drifted).toEqual([
      { address: "module.web.aws_security_group.allow", action: "update" },
      { address: "module.web.aws_instance.gone", action: "delete" },
    ]);
    expect(resourceChangesOf(refreshOnly.resource_changes, { reads: false })).toEqual([]);
    const planned = [{ address: "module.web.aws_instance.gone", action: "create" }, { address: "module.web.x", action: "replace" }];
    expect(mergeResourceChanges(drifted, planned)).toEqual([...drifted, { address: "module.web.x", action: "replace" }]);
  });
});

describe("PATCH bodies", () => {
  it("a body of only enabled is CTS's; any other key makes it an update", () => {
    expect(isTaskUpdateBody({ enabled: true })).toBe(false);
    expect(isTaskUpdateBody({})).toBe(false);
    expect(isTaskUpdateBody([])).toBe(false);
    expect(isTaskUpdateBody({ enabled: true, variables: {} })).toBe(true);
  });

  it("keys that are no task field get CTS's answer, sorted; a driver's field is a task field", () => {
    expect(unsupportedKeys({ enabled: true, zeta: 1, alpha: 2 }, [])?.message).toBe("request body's JSON contains unsupported keys: alpha, zeta");
    expect(unsupportedKeys({ enabled: true, terraform_cloud_workspace: {} }, ["terraform_cloud_workspace"])).toBeUndefined();
    expect(unsupportedKeys({ variables: {}, module: "m" }, [])).toBeUndefined();
  });

  it("merges top-level fields; null puts a field back to its default", () => {
    expect(mergeTaskFields({ name: "t", variables: { a: "1" }, buffer_period: { min: "1s" } }, { variables: { b: "2" }, buffer_period: null }))
      .toEqual({ name: "t", variables: { b: "2" } });
  });

  it("decodes enabled weakly, as CTS's mapstructure does", () => {
    expect(weakEnabled({ enabled: "true" })).toEqual({ enabled: true });
    expect(weakEnabled({ enabled: "0" })).toEqual({ enabled: false });
    expect(weakEnabled({ enabled: 2 })).toEqual({ enabled: true });
    expect(weakEnabled({ enabled: "yes" })).toEqual({ enabled: "yes" });
  });

  it("task update sends null for the optional fields the file leaves out", () => {
    expect(updateBody({ name: "t", module: "m", condition: {} })).toMatchObject({ module_input: null, buffer_period: null, drift_detection: null });
    expect(updateBody({ name: "t", variables: { a: "1" } }).variables).toEqual({ a: "1" });
  });
});
