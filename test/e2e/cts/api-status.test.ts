/**
 * Ports of CTS's e2e/api_test.go scenarios that need a daemon started from a config with a failing,
 * a succeeding and a disabled task: TestE2E_StatusEndpoints, TestE2E_TaskEndpoints_UpdateEnableDisable
 * and TestE2E_HealthEndpoint (plain HTTP; mTLS is test/e2e/api-tls.test.ts). The real CLI under Node,
 * the embedded Consul over HTTP, real terraform; CTS's dev-only "fake-sync" provider becomes
 * success_first, a module whose first run succeeds and every later run fails.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import {
  ctsBaseConfig, ctsModules, registerService, seedCtsCatalog, startCtsDaemon, taskStatuses, until, waitForEvent,
  waitForReadiness, type CtsDaemon, type CtsTaskStatus,
} from "./cts-api-support.ts";

const failure = "fake_handler_failure_task";
const success = "fake_handler_success_task";
const disabled = "disabled_task";

describe("CTS e2e api_test.go: status endpoints and enabling a disabled task", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const dir = mkdtempSync(join(tmpdir(), "cts-e2e-status-"));
  const wd = join(dir, "sync-tasks");

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await seedCtsCatalog(consul.url);
    const port = await freePort();
    // CTS's fakeHandlerConfig, with module paths relative to the daemon's cwd as CTS's e2e writes them;
    // disabled_task watches api and web as in CTS's disabledTaskConfig.
    writeFileSync(join(dir, "config.hcl"), `${ctsBaseConfig(wd, consul.address)}
port = ${port}

task {
  name        = "${failure}"
  description = "basic e2e task with fake handler. expected to error"
  module      = "./success_first"
  condition "services" {
    names = ["api"]
  }
}

task {
  name        = "${success}"
  description = "basic e2e task with fake handler. expected to not error"
  module      = "./local_instances_file"
  condition "services" {
    names = ["api"]
  }
}

task {
  name        = "${disabled}"
  description = "task is configured as disabled"
  enabled     = false
  module      = "./local_instances_file"
  condition "services" {
    names = ["api", "web"]
  }
}
`);
    daemon = startCtsDaemon(join(dir, "config.hcl"), ctsModules, port);
    await waitForReadiness(daemon);
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await fetch(`${daemon.url}/v1/${path}`);
    return { status: response.status, body: await response.json() as any };
  };

  it("TestE2E_StatusEndpoints: task statuses, events, the status filter and the overall summary", async () => {
    const now = Date.now();
    await registerService(consul.url, { ID: "api-2", Name: "api", Address: "5.6.7.8", Port: 8080 });
    await waitForEvent(daemon, failure, now);
    await waitForEvent(daemon, success, now);

    const entry = (name: string, status: string, enabled: boolean, withUrl: boolean): CtsTaskStatus => ({
      task_name: name, status, enabled, providers: [], services: [],
      events_url: withUrl ? `/v1/status/tasks/${name}?include=events` : "",
    });
    const all = await get("status/tasks");
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      [success]: entry(success, "successful", true, true),
      [failure]: entry(failure, "errored", true, true),
      [disabled]: entry(disabled, "unknown", false, false),
    });
    expect(await get(`status/tasks/${success}`)).toEqual({ status: 200, body: { [success]: entry(success, "successful", true, true) } });
    expect((await get("status/tasks/non-existing-task")).status).toBe(404);

    // CTS's checkEvents: 2-4 events, newest first; the failing task's oldest (its first run) succeeded.
    const checkEvents = (statuses: Record<string, CtsTaskStatus>, name: string, module: string) => {
      const events = statuses[name]!.events!;
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(events.length).toBeLessThanOrEqual(4);
      events.forEach((event, ix) => {
        expect(event.task_name).toBe(name);
        expect(event.config!.source).toBe(join(ctsModules, module));
        expect(event.success).toBe(name === success || ix === events.length - 1);
      });
    };
    const withEvents = await taskStatuses(daemon, "?include=events");
    checkEvents(withEvents, failure, "success_first");
    checkEvents(withEvents, success, "local_instances_file");
    // CTS: a task without events carries no "events" key at all (Go's omitempty), not [].
    expect(Object.keys(withEvents)).toContain(disabled);
    expect(withEvents[disabled]).not.toHaveProperty("events");

    const errored = await taskStatuses(daemon, "?status=errored&include=events");
    expect(Object.keys(errored)).toEqual([failure]);
    checkEvents(errored, failure, "success_first");

    const overall = await get("status");
    expect(overall.status).toBe(200);
    const summary = overall.body.task_summary;
    expect(summary.status.successful).toBe(1);
    expect(summary.status.unknown).toBe(1);
    expect(summary.status.errored + summary.status.critical).toBe(1);
    expect(summary.enabled).toEqual({ true: 2, false: 1 });
  }, 90_000);

  it("TestE2E_HealthEndpoint: GET /v1/health is 200 with no error", async () => {
    const health = await get("health");
    expect(health.status).toBe(200);
    expect(health.body.error).toBeUndefined();
  });

  it("PATCH /v1/tasks without a task name answers CTS's 400 and sentence, and changes nothing", async () => {
    for (const path of ["/v1/tasks", "/v1/tasks/"]) {
      const answer = await fetch(`${daemon.url}${path}`, { method: "PATCH", body: JSON.stringify({ enabled: true }) });
      expect(answer.status, path).toBe(400);
      expect(await answer.json()).toEqual({
        error: { message: "no task name was included in the api request. Updating a task requires the task name: '/v1/tasks/:task_name'" },
      });
    }
    expect((await taskStatuses(daemon, `/${disabled}`))[disabled]!.enabled).toBe(false);
  });

  it("TestE2E_TaskEndpoints_UpdateEnableDisable: inspect, enable with run=now, disable", async () => {
    const taskPath = join(wd, disabled);
    const resources = join(taskPath, "resources");
    // A disabled task's files are generated at start-up, but it does not run.
    expect(existsSync(join(taskPath, "terraform.tfvars.tmpl"))).toBe(true);
    expect(existsSync(join(taskPath, "main.tf"))).toBe(true);
    expect(existsSync(resources)).toBe(false);

    const base = `${daemon.url}/v1/tasks/${disabled}`;
    const inspect = await fetch(`${base}?run=inspect`, { method: "PATCH", body: JSON.stringify({ enabled: true }) });
    expect(inspect.status).toBe(200);
    const inspected = await inspect.json() as { inspect: { changes_present: boolean; plan: string } };
    expect(inspected.inspect.plan).not.toBe("");
    expect(existsSync(resources)).toBe(false);
    expect((await taskStatuses(daemon, `/${disabled}`))[disabled]!.enabled).toBe(false);

    const now = await fetch(`${base}?run=now`, { method: "PATCH", body: JSON.stringify({ enabled: true }) });
    expect(now.status).toBe(200);
    await until("the enabled task's resources", () => existsSync(join(resources, "web.txt")) || undefined);

    expect((await fetch(base, { method: "PATCH", body: JSON.stringify({ enabled: false }) })).status).toBe(200);
    rmSync(resources, { recursive: true, force: true });

    // A change the disabled task watches: the enabled success task (also on api) runs for it, the
    // disabled one creates nothing.
    const since = Date.now();
    await registerService(consul.url, { ID: "api-3", Name: "api", Address: "5.6.7.9", Port: 8080 });
    await waitForEvent(daemon, success, since);
    expect(existsSync(resources)).toBe(false);
  }, 90_000);
});
