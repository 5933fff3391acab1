/**
 * In-process tests of the run history API (beyond CTS): `GET /v1/tasks/{name}/runs` pages newest
 * first with a `before` cursor, `GET /v1/tasks/{name}/runs/{id}`, errors in the shape of CTS's newer
 * task endpoints, answers valid against the served OpenAPI document; and the engine's live events
 * (run started/ended with the same record, task status, created, deleted) on the kernel's bus.
 * Real task engine and embedded Consul; scheduled tasks (never due) run only when asked.
 */
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonEventsToken, type NumberedEvent, type RunRecord, type TaskManager } from "../../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startEngineApp, type EngineApp } from "./helpers/test-api.ts";

function task(name: string) {
  const body = { task: { name, module: "./m", providers: ["null"], condition: { schedule: { cron: "0 0 1 1 *" } } } };
  return { method: "POST", body: JSON.stringify(body) };
}

describe("run history API", () => {
  let consul: TestConsulDevServer;
  let engine: EngineApp;
  let tasks: TaskManager;
  let app: EngineApp["app"];
  const events: NumberedEvent[] = [];
  beforeAll(async () => {
    consul = await startConsulDevServer();
    engine = await startEngineApp({ consulAddress: consul.address, recording: { fail_tasks: ["bad"] } });
    ({ app } = engine);
    tasks = engine.daemon.tasks;
    engine.daemon.kernel.resolve(daemonEventsToken).subscribe((event) => events.push(event));
    expect((await app.request("/v1/tasks?run=now", task("sched"))).status).toBe(201);
    for (let n = 0; n < 4; n++) await tasks.runNow("sched", { kind: "api", detail: `run ${n}` });
    expect((await app.request("/v1/tasks", task("bad"))).status).toBe(201);
    await tasks.runNow("bad", { kind: "api" });
  });
  afterAll(async () => {
    await engine?.stop();
    await consul?.stop();
  });

  const get = async (path: string) => {
    const res = await app.request(path);
    return { status: res.status, body: await res.json() };
  };

  it("pages newest first: limit, next, before", async () => {
    const all: RunRecord[] = [];
    let page = await get("/v1/tasks/sched/runs?limit=2");
    expect(page.status).toBe(200);
    for (;;) {
      all.push(...page.body.runs);
      if (!page.body.next) break;
      expect(page.body.runs).toHaveLength(2);
      expect(page.body.next).toBe(page.body.runs[1].id);
      page = await get(`/v1/tasks/sched/runs?limit=2&before=${page.body.next}`);
    }
    expect(all).toHaveLength(5);
    expect(new Set(all.map((run) => run.id)).size).toBe(5);
    expect(all.map((run) => run.id)).toEqual(all.map((run) => run.id).sort().reverse());
    expect(all.map((run) => run.trigger.detail)).toEqual(["run 3", "run 2", "run 1", "run 0", "create run=now"]);
    // The default page holds them all (20).
    expect((await get("/v1/tasks/sched/runs")).body.runs).toEqual(all);
    // Beyond the page: how many records the task has in all, on every page.
    expect((await get("/v1/tasks/sched/runs?limit=2")).body.total).toBe(5);
    expect((await get(`/v1/tasks/sched/runs?limit=2&before=${all[3]!.id}`)).body).toMatchObject({ total: 5, runs: [all[4]] });
  });

  it("records the outcome, timing, instance and the CTS event of each run; failures keep their error", async () => {
    const [newest] = (await get("/v1/tasks/sched/runs?limit=1")).body.runs as RunRecord[];
    expect(newest).toMatchObject({ task: "sched", outcome: "applied", trigger: { kind: "api" }, instance_id: expect.any(String) });
    expect(newest!.change.services).toEqual({ added: [], removed: [], changed: [] });
    expect(newest!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(newest!.ended_at!)).toBeGreaterThanOrEqual(Date.parse(newest!.started_at));
    const status = (await get("/v1/status/tasks/sched?include=events")).body;
    expect(status.sched.events.map((event: { id: string }) => event.id)).toContain(newest!.event_id);

    const [failed] = (await get("/v1/tasks/bad/runs")).body.runs as RunRecord[];
    expect(failed).toMatchObject({ outcome: "failed", error: expect.stringContaining("bad") });
  });

  it("reads one run by id; unknown runs and tasks are 404 with a request id", async () => {
    const [newest] = (await get("/v1/tasks/sched/runs?limit=1")).body.runs as RunRecord[];
    const one = await get(`/v1/tasks/sched/runs/${newest!.id}`);
    expect(one.status).toBe(200);
    expect(one.body.run).toEqual(newest);
    const missingRun = await get("/v1/tasks/sched/runs/0000000000001-abc");
    expect(missingRun.status).toBe(404);
    expect(missingRun.body).toEqual({ error: { message: "run '0000000000001-abc' of task 'sched' does not exist" }, request_id: expect.any(String) });
    const missingTask = await get("/v1/tasks/nope/runs");
    expect(missingTask.status).toBe(404);
    expect(missingTask.body).toEqual({ error: { message: "a task with name 'nope' does not exist or has not been initialized yet" }, request_id: expect.any(String) });
    expect((await get("/v1/tasks/nope/runs/0000000000001-abc")).status).toBe(404);
  });

  it("rejects bad paging with 400 naming the parameter, and other methods with 405", async () => {
    for (const query of ["limit=0", "limit=101", "limit=x", "before=nope", "limit=1&limit=2", "page=2"]) {
      const res = await get(`/v1/tasks/sched/runs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(/limit|before|page/);
    }
    const post = await app.request("/v1/tasks/sched/runs", { method: "POST" });
    expect(post.status).toBe(405);
    expect((await post.json()).error.message).toContain("use GET");
  });

  it("answers match the served OpenAPI document", async () => {
    const doc = await (await app.request("/v1/openapi.json")).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1/tasks/{name}/runs", "/v1/tasks/{name}/runs/{id}"]));
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const page = (await get("/v1/tasks/bad/runs")).body;
    expect(ajv.validate("#/components/schemas/RunsResponse", page), JSON.stringify(ajv.errors)).toBe(true);
    const one = (await get(`/v1/tasks/bad/runs/${page.runs[0].id}`)).body;
    expect(ajv.validate("#/components/schemas/RunResponse", one), JSON.stringify(ajv.errors)).toBe(true);
  });

  it("publishes run.started and run.ended with the same record, task status changes, created and deleted", async () => {
    type RunEvent = Extract<NumberedEvent, { type: "run.started" | "run.ended" }>;
    const runEvents = (type: RunEvent["type"]) =>
      events.filter((e): e is RunEvent => e.type === type && (e as RunEvent).run.task === "sched");
    const started = runEvents("run.started");
    const ended = runEvents("run.ended");
    expect(started).toHaveLength(5);
    expect(ended).toHaveLength(5);
    for (const [i, start] of started.entries()) {
      expect(start.run.outcome).toBe("running");
      expect(ended[i]!.run.id).toBe(start.run.id);
      expect(ended[i]!.run.outcome).toBe("applied");
      expect(ended[i]!.id).toBeGreaterThan(start.id);
    }
    expect(events.find((e) => e.type === "task.created" && e.task === "sched")).toBeDefined();
    const badStatus = events.filter((e) => e.type === "task.status" && e.task === "bad").map((e) => e.type === "task.status" && e.status);
    expect(badStatus).toContain("errored");

    const disabled = events.length;
    expect((await app.request("/v1/tasks/sched", { method: "PATCH", body: JSON.stringify({ enabled: false }) })).status).toBe(200);
    expect(events.slice(disabled)).toContainEqual(expect.objectContaining({ type: "task.status", task: "sched", enabled: false }));
    expect((await app.request("/v1/tasks/bad", { method: "DELETE" })).status).toBe(202);
    await tasks.idle();
    expect(events.slice(disabled)).toContainEqual(expect.objectContaining({ type: "task.deleted", task: "bad" }));
  });
  it("an inspection through PATCH ?run=inspect keeps CTS's body and names its run record in Content-Location", async () => {
    const res = await app.request("/v1/tasks/sched?run=inspect", { method: "PATCH", body: JSON.stringify({ enabled: true }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ inspect: { changes_present: true, plan: expect.stringContaining("recording plan for sched") } });
    const location = res.headers.get("content-location")!;
    expect(location).toMatch(/^\/v1\/tasks\/sched\/runs\/\d{13}-[0-9a-f]{8}$/);
    const record = (await get(location)).body.run as RunRecord;
    expect(record).toMatchObject({ kind: "inspect", outcome: "planned", trigger: { kind: "api", detail: "inspect" } });
    expect(record.logs?.plan?.text).toContain("recording plan for sched");
    // In the list without its output; the inspection is not a run CTS counts as the task's last.
    const [listed] = (await get("/v1/tasks/sched/runs?limit=1")).body.runs as RunRecord[];
    expect(listed).toMatchObject({ id: record.id, kind: "inspect" });
    expect(listed!.logs).toBeUndefined();
    // Inspecting a disabled task answers CTS's skip and keeps no record.
    const skip = await app.request("/v1/tasks/sched?run=inspect", { method: "PATCH", body: JSON.stringify({ enabled: false }) });
    expect(skip.headers.get("content-location")).toBeNull();
  });
});
