/**
 * Ports of CTS's e2e/api_test.go task endpoint scenarios on one daemon (the real CLI under Node,
 * the embedded Consul over HTTP, real terraform): TestE2E_TaskEndpoints_Create, _Create_Run_Now,
 * _InvalidSchema, _DryRunTaskCreate, _Get, _GetAll, _Delete and _Delete_ActiveTask. CTS's tasks name
 * provider "local" and registry modules; here the stand-ins in test/fixtures/cts-e2e-api need none.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import {
  ctsBaseConfig, ctsModules, eventCount, moduleTask, registerService, seedCtsCatalog, startCtsDaemon, until,
  waitForEvent, waitForReadiness, type CtsDaemon,
} from "./cts-api-support.ts";

const initialTask = "initial-task";

/** CTS's createTestTaskTemplate, without the "local" provider (no registry here). */
function createRequest(name: string, service: string, module = "./local_instances_file"): string {
  return JSON.stringify({
    task: {
      description: "Writes the service name, id, and IP address to a file",
      name,
      condition: { services: { names: [service] } },
      module,
    },
  });
}

describe("CTS e2e api_test.go: task endpoints", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const dir = mkdtempSync(join(tmpdir(), "cts-e2e-tasks-api-"));
  const wd = join(dir, "sync-tasks");
  const resources = (task: string, id: string) => join(wd, task, "resources", `${id}.txt`);

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await seedCtsCatalog(consul.url);
    const port = await freePort();
    writeFileSync(join(dir, "config.hcl"),
      `${ctsBaseConfig(wd, consul.address)}\nport = ${port}\n${moduleTask(initialTask, "./local_instances_file")}`);
    daemon = startCtsDaemon(join(dir, "config.hcl"), ctsModules, port);
    await waitForReadiness(daemon);
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${daemon.url}/v1/${path}`, { method, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  };

  it("TestE2E_TaskEndpoints_Create: a created task does not run until its services change", async () => {
    await registerService(consul.url, { ID: "testService", Name: "testService", Address: "5.6.7.8", Port: 8080 });
    const created = await request("POST", "tasks", createRequest("created-task", "testService"));
    expect(created.status, created.text).toBe(201);

    const status = await request("GET", "status/tasks/created-task");
    expect(status.status).toBe(200);
    expect(status.body["created-task"]).toMatchObject({ enabled: true, status: "unknown" });
    expect(await eventCount(daemon, "created-task")).toBe(0);
    expect(existsSync(resources("created-task", "testService"))).toBe(false);

    const since = Date.now();
    await registerService(consul.url, { ID: "testService-2", Name: "testService", Address: "5.6.7.9", Port: 8080 });
    await waitForEvent(daemon, "created-task", since);
    expect(await eventCount(daemon, "created-task")).toBe(1);
    expect(readFileSync(resources("created-task", "testService-2"), "utf8")).toBe("5.6.7.9");
  }, 60_000);

  it("TestE2E_TaskEndpoints_Create_Run_Now: the task runs at once on what Consul already holds, one event", async () => {
    await registerService(consul.url, { ID: "nowService", Name: "nowService", Address: "5.6.7.8", Port: 8080 });
    const created = await request("POST", "tasks?run=now", createRequest("created-task-now", "nowService"));
    expect(created.status, created.text).toBe(201);
    expect((await request("GET", "status/tasks/created-task-now")).status).toBe(200);
    expect(await eventCount(daemon, "created-task-now")).toBe(1);
    expect(readFileSync(resources("created-task-now", "nowService"), "utf8")).toBe("5.6.7.8");
  }, 60_000);

  it("TestE2E_TaskEndpoints_InvalidSchema: a boolean module is a 400 naming the schema, no task", async () => {
    const bad = JSON.parse(createRequest("created-task-bad", "api"));
    bad.task.module = true;
    bad.task.enabled = true;
    const answer = await request("POST", "tasks", JSON.stringify(bad));
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("doesn't match schema");
    expect(answer.body.error.message).toContain("value must be a string");
    expect((await request("GET", "status/tasks/created-task-bad")).status).toBe(404);
  });

  it("TestE2E_TaskEndpoints_DryRunTaskCreate: run=inspect answers the task and its plan, keeps nothing", async () => {
    const answer = await request("POST", "tasks?run=inspect", JSON.stringify({
      task: { name: "dryrun_task", condition: { services: { names: ["api"] } }, module: "./local_instances_file" },
    }));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.request_id).not.toBe("");
    expect(answer.body.run.plan).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(answer.body.task.name).toBe("dryrun_task");
    expect(answer.body.task.module).toBe("./local_instances_file");
    expect(answer.body.task.condition.services.names).toEqual(["api"]);
    expect((await request("GET", "status/tasks/dryrun_task")).status).toBe(404);
    expect(existsSync(resources("dryrun_task", "api"))).toBe(false);

    // A change the dry-run task would have followed: the configured task (api, web) runs, nothing else.
    const since = Date.now();
    await registerService(consul.url, { ID: "api-2", Name: "api", Address: "5.6.7.9", Port: 8080 });
    await waitForEvent(daemon, initialTask, since);
    expect((await request("GET", "status/tasks/dryrun_task")).status).toBe(404);
    expect(existsSync(resources("dryrun_task", "api-2"))).toBe(false);
  }, 60_000);

  it("TestE2E_TaskEndpoints_Get and _GetAll: the task as configured, no enterprise fields; 404 for others", async () => {
    const one = await request("GET", `tasks/${initialTask}`);
    expect(one.status).toBe(200);
    expect(one.body.request_id).not.toBe("");
    expect(one.body.task.name).toBe(initialTask);
    expect(one.body.task.module).toBe("./local_instances_file");
    expect(one.body.task.terraform_version ?? "").toBe("");
    expect((await request("GET", "tasks/non-existent-task")).status).toBe(404);

    const all = await request("GET", "tasks");
    expect(all.status).toBe(200);
    expect(all.body.request_id).not.toBe("");
    const byName = new Map((all.body.tasks as { name: string; module: string; terraform_version?: string }[]).map((t) => [t.name, t]));
    for (const name of [initialTask, "created-task", "created-task-now"]) {
      expect(byName.get(name)?.module).toBe("./local_instances_file");
      expect(byName.get(name)?.terraform_version ?? "").toBe("");
    }
  });

  it("TestE2E_TaskEndpoints_Delete: 202, then 404, and the deleted task no longer follows its services", async () => {
    expect((await request("DELETE", "tasks/created-task")).status).toBe(202);
    await until("created-task to be gone", async () =>
      (await request("GET", "status/tasks/created-task")).status === 404 || undefined);

    // The run-now task watches another service; make both change and wait for the live task's run.
    const since = Date.now();
    await registerService(consul.url, { ID: "testService-3", Name: "testService", Address: "5.6.7.10", Port: 8080 });
    await registerService(consul.url, { ID: "nowService-2", Name: "nowService", Address: "5.6.7.10", Port: 8080 });
    await waitForEvent(daemon, "created-task-now", since);
    expect((await request("GET", "status/tasks/created-task")).status).toBe(404);
    expect(existsSync(resources("created-task", "testService-3"))).toBe(false);
  }, 60_000);

  it("TestE2E_TaskEndpoints_Delete_ActiveTask: deleting a running task waits for the run to finish", async () => {
    const name = "deleted_task_conflict";
    const body = JSON.parse(createRequest(name, "conflictService", "./delayed_module"));
    body.task.variables = { delay: "3" };
    await registerService(consul.url, { ID: "conflictService", Name: "conflictService", Address: "5.6.7.8", Port: 8080 });
    const created = await request("POST", "tasks?run=now", JSON.stringify(body));
    expect(created.status, created.text).toBe(201);
    const greetings = join(wd, name, "services_greetings.txt");
    const lines = () => (existsSync(greetings) ? readFileSync(greetings, "utf8").split("\n").filter(Boolean).length : 0);
    expect(lines()).toBe(1);

    // Trigger the task; once the module has greeted the new instance it is sleeping mid-apply.
    await registerService(consul.url, { ID: "conflictService-2", Name: "conflictService", Address: "5.6.7.9", Port: 8080 });
    await until("the delayed run to be under way", () => (lines() === 2 ? true : undefined));
    expect((await request("DELETE", `tasks/${name}`)).status).toBe(202);
    // Still there while the run goes on: only the run=now event is stored so far.
    expect(await eventCount(daemon, name)).toBe(1);

    await until(`${name} to be gone`, async () => (await request("GET", `status/tasks/${name}`)).status === 404 || undefined);
    expect(readFileSync(resources(name, "conflictService-2"), "utf8")).toBe("5.6.7.9");
  }, 60_000);
});
