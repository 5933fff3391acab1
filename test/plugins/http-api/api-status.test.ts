/**
 * In-process tests of `/v1/status*`, `/v1/health`, `/v1/status/cluster` and `/v1/openapi.json`
 * over the real task engine: scheduled tasks (never due during the test) run only when asked,
 * and the recording driver fails the tasks named "once" and "bad".
 */
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consulClientToken, consulQuery, type TaskManager } from "../../../core/plugin-api/mod.ts";
import { CLUSTER_WITHOUT_HA_MESSAGE } from "../../../plugins/http-api/src/routes/meta-routes.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startEngineApp, type EngineApp, type LogRecord } from "./helpers/test-api.ts";
import { consulWarning } from "../../../core/cli/commands/status.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function task(name: string, extra: Record<string, unknown> = {}) {
  const body = { task: { name, module: "./m", providers: ["null"], condition: { schedule: { cron: "0 0 1 1 *" } }, ...extra } };
  return { method: "POST", body: JSON.stringify(body) };
}

describe("status API", () => {
  let consul: TestConsulDevServer;
  let engine: EngineApp;
  let tasks: TaskManager;
  let app: EngineApp["app"];
  let logs: LogRecord[];
  beforeAll(async () => {
    consul = await startConsulDevServer();
    engine = await startEngineApp({ consulAddress: consul.address, recording: { fail_tasks: ["once", "bad"] } });
    ({ app, logs } = engine);
    tasks = engine.daemon.tasks;
    expect((await app.request("/v1/tasks", task("fresh", { enabled: false }))).status).toBe(201);
    expect((await app.request("/v1/tasks?run=now", task("good"))).status).toBe(201);
    expect((await app.request("/v1/tasks", task("once"))).status).toBe(201);
    await tasks.runNow("once", { kind: "api" }); // one failure: errored
    expect((await app.request("/v1/tasks", task("bad"))).status).toBe(201);
    await tasks.runNow("bad", { kind: "api" });
    await tasks.runNow("bad", { kind: "api" }); // two failures: critical
  });
  afterAll(async () => {
    await engine?.stop();
    await consul?.stop();
  });

  it("summarises task status and enabled counts", async () => {
    const res = await app.request("/v1/status");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      task_summary: { status: { successful: 1, errored: 1, critical: 1, unknown: 1 }, enabled: { true: 3, false: 1 } },
      consul: { healthy: true, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), failures: 0 },
    });
    const post = await app.request("/v1/status", { method: "POST" });
    expect(post.status).toBe(405);
    const body = await post.json();
    expect(body.error.message).toContain("POST");
    expect(body.request_id).toBeUndefined();
  });

  it("lists task status keyed by name, with events only on include=events", async () => {
    const all = await (await app.request("/v1/status/tasks")).json();
    expect(Object.keys(all)).toEqual(["bad", "fresh", "good", "once"]);
    expect(all.fresh).toEqual({
      task_name: "fresh", status: "unknown", enabled: false, events_url: "", providers: ["null"], services: [],
    });
    expect(all.bad.status).toBe("critical");
    expect(all.once.status).toBe("errored");
    expect(all.good.events_url).toBe("/v1/status/tasks/good?include=events");
    expect(all.good.events).toBeUndefined();
    const withEvents = await (await app.request("/v1/status/tasks/bad?include=events")).json();
    expect(Object.keys(withEvents)).toEqual(["bad"]);
    expect(withEvents.bad.events).toHaveLength(2);
    expect(withEvents.bad.events[0]).toMatchObject({ success: false, task_name: "bad", error: { message: expect.stringContaining("configured to fail") } });
    // CTS reports a ./ module as the absolute path its driver made of it (joined onto the daemon's CWD).
    expect(withEvents.bad.events[0].config).toEqual({ providers: ["null"], services: [], source: join(process.cwd(), "m") });
  });

  it("filters by status (case-insensitive); a filtered-out named task gives {}", async () => {
    expect(Object.keys(await (await app.request("/v1/status/tasks?status=Critical")).json())).toEqual(["bad"]);
    expect(Object.keys(await (await app.request("/v1/status/tasks?status=unknown")).json())).toEqual(["fresh"]);
    expect(await (await app.request("/v1/status/tasks/good?status=errored")).json()).toEqual({});
    // CTS (api/task_status.go): a named task that never ran is answered as unknown whatever the filter.
    expect(Object.keys(await (await app.request("/v1/status/tasks/fresh?status=errored")).json())).toEqual(["fresh"]);
  });

  it("rejects bad parameters, nested paths, unknown tasks and other methods in the legacy shape", async () => {
    const cases: [string, number][] = [
      ["/v1/status/tasks?include=everything", 400],
      ["/v1/status/tasks?status=fine", 400],
      ["/v1/status/tasks?include=events&include=events", 400],
      ["/v1/status/tasks?colour=red", 400],
      ["/v1/status/tasks/good/extra", 400],
      ["/v1/status/tasks/nope", 404],
    ];
    for (const [url, status] of cases) {
      const res = await app.request(url);
      expect(res.status, url).toBe(status);
      const body = await res.json();
      expect(body.error.message).toBeTypeOf("string");
      expect(body.request_id, url).toBeUndefined();
    }
    expect((await app.request("/v1/status/tasks/good", { method: "DELETE" })).status).toBe(405);
  });

  it("health is 200 {} and not logged; cluster status is 405 without HA", async () => {
    logs.length = 0;
    const health = await app.request("/v1/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({});
    expect(logs).toEqual([]);
    const cluster = await app.request("/v1/status/cluster");
    expect(cluster.status).toBe(405);
    const body = await cluster.json();
    expect(body).toEqual({ error: { message: CLUSTER_WITHOUT_HA_MESSAGE }, request_id: expect.stringMatching(UUID) });
    expect(CLUSTER_WITHOUT_HA_MESSAGE).toBe("this endpoint is only available with high availability configured");
    logs.length = 0;
    await app.request("/v1/status");
    expect(logs.map((l) => l.message)).toEqual(["received request", "request complete"]);
    expect(logs[1]!.fields).toMatchObject({ status_code: 200, method: "GET" });
  });

  // CTS behaviour pinned (api/middleware.go): every request gets a UUID, logged as request_id on its
  // DEBUG line whatever the route; no header is read or written for it.
  it("gives every request a UUID, logs it, and neither reads nor writes an X-Request-Id header", async () => {
    const completed = (path: string) => logs.find((l) => l.message === "request complete" && String(l.fields?.uri).endsWith(path));
    logs.length = 0;
    const legacy = await app.request("/v1/status", { headers: { "X-Request-Id": "chosen-by-client" } });
    expect(legacy.headers.get("X-Request-Id")).toBeNull();
    expect(completed("/v1/status")?.fields?.request_id).toMatch(UUID);
    const listed = await app.request("/v1/tasks", { headers: { "X-Request-Id": "chosen-by-client" } });
    const body = await listed.json();
    expect(body.request_id).toMatch(UUID);
    expect(completed("/v1/tasks")?.fields?.request_id).toBe(body.request_id);
    expect(completed("/v1/status")?.fields?.request_id).not.toBe(body.request_id);
  });

  it("serves an OpenAPI document whose schemas compile and match real responses", async () => {
    const doc = await (await app.request("/v1/openapi.json")).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/v1/tasks/{name}");
    const ajv = new Ajv({ strict: false });
    ajv.addFormat("uuid", UUID);
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, name);
    const list = await (await app.request("/v1/tasks")).json();
    expect(ajv.validate("TasksResponse", list), JSON.stringify(ajv.errors)).toBe(true);
    const missing = await (await app.request("/v1/tasks/nope")).json();
    expect(ajv.validate("Error", missing)).toBe(true);
    expect(ajv.validate("TaskCreateRequest", { task: { name: "x", module: "m", condition: {}, extra: 1 } })).toBe(false);
  });

  // Last: it stops the Consul server for good.
  it("reports a Consul outage next to the summary (beyond CTS), and the CLI's status warns", async () => {
    await consul.stop();
    // These tasks are scheduled, so nothing watches Consul here: make one real request to find out.
    const client = engine.daemon.kernel.resolve(consulClientToken);
    await expect(client.query(consulQuery("/v1/status/leader"), { retry: false })).rejects.toThrow();
    const body = await (await app.request("/v1/status")).json();
    expect(body.consul).toMatchObject({ healthy: false, last_error: expect.stringContaining("ECONNREFUSED") });
    expect(body.consul.failures).toBeGreaterThan(0);
    expect(consulWarning(body.consul)).toMatch(/^Consul is unreachable since \d{4}-.*ECONNREFUSED.*; tasks run again once it is back$/);
  });
});
