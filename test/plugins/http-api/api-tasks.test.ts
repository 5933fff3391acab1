/**
 * In-process tests of the tasks lifecycle endpoints (`/v1/tasks*`) through `app.request()`, over
 * the real task engine and recording driver, with the embedded Consul serving service "web".
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TaskManager } from "../../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { recorded } from "../../../harness/driver-recording/mod.ts";
import { startEngineApp, type EngineApp } from "./helpers/test-api.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const webTask = {
  name: "web",
  module: "./modules/web",
  condition: { services: { names: ["web"] } },
};

function json(method: string, body: unknown): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const PLAN = "recording plan for web: 1 service instance(s)";

describe("tasks API", () => {
  let consul: TestConsulDevServer;
  let engine: EngineApp;
  let tasks: TaskManager;
  let app: EngineApp["app"];
  beforeAll(async () => {
    consul = await startConsulDevServer();
    await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify({ ID: "web-1", Name: "web", Port: 80 }) });
  });
  afterAll(async () => {
    await consul?.stop();
  });
  beforeEach(async () => {
    engine = await startEngineApp({ consulAddress: consul.address, recording: { fail_tasks: ["doomed"] } });
    tasks = engine.daemon.tasks;
    app = engine.app;
  });
  afterEach(async () => {
    await engine?.stop();
  });

  it("creates a task without running it and shows CTS's representation", async () => {
    const res = await app.request("/v1/tasks", json("POST", { task: webTask }));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.request_id).toMatch(UUID);
    expect(body.task).toEqual({
      condition: {
        services: {
          regexp: "", names: ["web"], filter: "", datacenter: "", namespace: "",
          cts_user_defined_meta: {}, use_as_module_input: true,
        },
      },
      description: "", enabled: true, module: "./modules/web", module_input: {}, name: "web",
      providers: [], variables: {}, version: "",
    });
    expect(tasks.get("web")?.events).toEqual([]);
  });

  it("creates with run=now, records an event, and refuses a failed run without keeping the task", async () => {
    const ok = await app.request("/v1/tasks?run=now", json("POST", { task: webTask }));
    expect(ok.status).toBe(201);
    expect(tasks.get("web")?.events).toHaveLength(1);

    const res = await app.request("/v1/tasks?run=NOW", json("POST", { task: { ...webTask, name: "doomed" } }));
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error.message).toContain("configured to fail");
    expect(body.request_id).toMatch(UUID);
    expect((await (await app.request("/v1/tasks")).json()).tasks.map((t: { name: string }) => t.name)).toEqual(["web"]);
  });

  it("inspects with run=inspect: 200 with the plan, task not kept", async () => {
    const res = await app.request("/v1/tasks?run=inspect", json("POST", { task: webTask }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.run).toEqual({ changes_present: true, plan: PLAN });
    expect(body.task.name).toBe("web");
    expect(tasks.get("web")).toBeUndefined();
  });

  it("rejects duplicates, unknown keys, bad names, bad run values, repeated params, bad JSON, two conditions", async () => {
    await app.request("/v1/tasks", json("POST", { task: webTask }));
    const cases: [string, unknown, string][] = [
      ["/v1/tasks", { task: webTask }, "already exists"],
      ["/v1/tasks", { task: { ...webTask, name: "other", colour: "red" } }, 'property "colour" is unsupported'],
      ["/v1/tasks", { task: { ...webTask, name: "../etc" } }, "not valid"],
      ["/v1/tasks", { task: { ...webTask, name: "x", condition: {} } }, "exactly one key"],
      [
        "/v1/tasks",
        { task: { ...webTask, name: "x", condition: { services: { names: ["a"] }, schedule: { cron: "* * * * *" } } } },
        "exactly one key",
      ],
      ["/v1/tasks", { task: { name: "x", module: "m" } }, 'Error at "/task/condition": property "condition" is missing'],
      ["/v1/tasks", { tsk: webTask }, 'property "tsk" is unsupported'],
      ["/v1/tasks?run=later", { task: { ...webTask, name: "x" } }, "unsupported value 'later'"],
      ["/v1/tasks?run=now&run=now", { task: { ...webTask, name: "x" } }, "only once"],
      ["/v1/tasks?rnu=now", { task: { ...webTask, name: "x" } }, "unsupported query parameter 'rnu'"],
      ["/v1/tasks", { task: { ...webTask, name: "x", buffer_period: { min: "soon" } } }, "buffer_period"],
    ];
    for (const [url, body, message] of cases) {
      const res = await app.request(url, json("POST", body));
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      const out = await res.json();
      expect(out.error.message).toContain(message);
      expect(out.request_id).toMatch(UUID);
    }
    const bad = await app.request("/v1/tasks", { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("not valid JSON");
    expect(tasks.list().map((t) => t.config.name)).toEqual(["web"]);
  });

  it("refuses bodies over the size limit with 413", async () => {
    const small = await startEngineApp({ consulAddress: consul.address, bodyLimitBytes: 200 });
    try {
      const res = await small.app.request("/v1/tasks", json("POST", { task: { ...webTask, description: "x".repeat(500) } }));
      expect(res.status).toBe(413);
      expect((await res.json()).error.message).toContain("larger than 200 bytes");
      expect(small.daemon.tasks.list()).toEqual([]);
    } finally {
      await small.stop();
    }
  });

  it("answers 400 when an inspection fails, and keeps nothing", async () => {
    const res = await app.request("/v1/tasks?run=inspect", json("POST", { task: { ...webTask, name: "doomed" } }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("configured to fail");
    expect(tasks.get("doomed")).toBeUndefined();
  });

  it("lists and reads tasks; unknown task is 404 with request id", async () => {
    await app.request("/v1/tasks", json("POST", { task: { ...webTask, name: "b" } }));
    await app.request("/v1/tasks", json("POST", { task: { ...webTask, name: "a" } }));
    const list = await (await app.request("/v1/tasks")).json();
    expect(list.request_id).toMatch(UUID);
    // CTS lists tasks in creation order (after the configured ones), not alphabetically.
    expect(list.tasks.map((t: { name: string }) => t.name)).toEqual(["b", "a"]);
    const one = await app.request("/v1/tasks/a");
    expect(one.status).toBe(200);
    expect((await one.json()).task.name).toBe("a");
    const missing = await app.request("/v1/tasks/zzz");
    expect(missing.status).toBe(404);
    expect((await missing.json()).request_id).toMatch(UUID);
    const nested = await app.request("/v1/tasks/a/b");
    expect(nested.status).toBe(400);
  });

  it("shows buffer_period only when configured, and schedule tasks as disabled", async () => {
    await app.request("/v1/tasks", json("POST", { task: { ...webTask, buffer_period: { min: "10s", max: "1m30s" } } }));
    await app.request(
      "/v1/tasks",
      json("POST", { task: { name: "cron", module: "./m", condition: { schedule: { cron: "*/5 * * * *" } } } }),
    );
    const web = (await (await app.request("/v1/tasks/web")).json()).task;
    expect(web.buffer_period).toEqual({ enabled: true, min: "10s", max: "1m30s" });
    const cron = (await (await app.request("/v1/tasks/cron")).json()).task;
    expect(cron.buffer_period).toEqual({ enabled: false, min: "0s", max: "0s" });
    expect(cron.condition).toEqual({ schedule: { cron: "*/5 * * * *" } });
  });

  it("maps catalog_services/consul_kv and module_input, names win over regexp", async () => {
    const task = {
      name: "kv", module: "./m",
      condition: { consul_kv: { path: "app/", recurse: true } },
      module_input: { services: { regexp: "^web", cts_user_defined_meta: { a: "1", b: null } } },
    };
    expect((await app.request("/v1/tasks", json("POST", { task }))).status).toBe(201);
    const kv = (await (await app.request("/v1/tasks/kv")).json()).task;
    expect(kv.condition).toEqual({ consul_kv: { path: "app/", recurse: true, datacenter: "", namespace: "", use_as_module_input: true } });
    expect(kv.module_input.services).toMatchObject({ regexp: "^web", cts_user_defined_meta: { a: "1" } });
    const both = { name: "both", module: "./m", condition: { services: { names: ["a"], regexp: "b" } } };
    await app.request("/v1/tasks", json("POST", { task: both }));
    expect((await (await app.request("/v1/tasks/both")).json()).task.condition.services.regexp).toBe("");
  });

  it("PATCH disables, enables with run=now, inspects without persisting", async () => {
    await app.request("/v1/tasks", json("POST", { task: webTask }));
    const off = await app.request("/v1/tasks/web", json("PATCH", { enabled: false }));
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({});
    expect(tasks.get("web")?.config.enabled).toBe(false);

    const inspect = await app.request("/v1/tasks/web?run=inspect", json("PATCH", { enabled: true }));
    expect(await inspect.json()).toEqual({ inspect: { changes_present: true, plan: PLAN } });
    expect(tasks.get("web")?.config.enabled).toBe(false);

    const on = await app.request("/v1/tasks/web?run=now", json("PATCH", { enabled: true }));
    expect(on.status).toBe(200);
    expect(tasks.get("web")?.config.enabled).toBe(true);
    expect(tasks.get("web")?.events).toHaveLength(1);
    expect(recorded("apply", "web").length).toBeGreaterThan(0);
  });

  it("PATCH errors: unsupported keys and bad values (legacy shape), unknown task (404 with request id)", async () => {
    await app.request("/v1/tasks", json("POST", { task: webTask }));
    for (const body of [{ enabled: true, name: "x" }, {}, { enabled: "yes" }]) {
      const res = await app.request("/v1/tasks/web", json("PATCH", body));
      expect(res.status).toBe(400);
      const out = await res.json();
      expect(out.error.message).toBeTypeOf("string");
      expect(out.request_id).toBeUndefined();
    }
    const missing = await app.request("/v1/tasks/nope", json("PATCH", { enabled: true }));
    expect(missing.status).toBe(404);
    expect((await missing.json()).request_id).toMatch(UUID);
  });

  it("PATCH on a running task is 500 and changes nothing; DELETE while running answers 202 and waits", async () => {
    const slow = await startEngineApp({ consulAddress: consul.address, recording: { apply_delay_ms: 400 } });
    try {
      await slow.app.request("/v1/tasks", json("POST", { task: webTask }));
      await slow.daemon.tasks.idle();
      const running = slow.daemon.tasks.runNow("web", { kind: "api" });
      for (let i = 0; i < 200 && !slow.daemon.tasks.get("web")?.running; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(slow.daemon.tasks.get("web")?.running).toBe(true);
      const busy = await slow.app.request("/v1/tasks/web", json("PATCH", { enabled: false }));
      expect(busy.status).toBe(500);
      const body = await busy.json();
      expect(body.error.message).toContain("active");
      expect(body.request_id).toMatch(UUID);
      expect(slow.daemon.tasks.get("web")?.config.enabled).toBe(true);
      const deleted = await slow.app.request("/v1/tasks/web", { method: "DELETE" });
      expect(deleted.status).toBe(202);
      expect(slow.daemon.tasks.get("web")).toBeDefined();
      await running;
      await slow.daemon.tasks.idle();
      expect(slow.daemon.tasks.get("web")).toBeUndefined();
    } finally {
      await slow.stop();
    }
  });

  it("DELETE answers 202 with a request id; unknown is 404", async () => {
    await app.request("/v1/tasks", json("POST", { task: webTask }));
    const res = await app.request("/v1/tasks/web", { method: "DELETE" });
    expect(res.status).toBe(202);
    expect(Object.keys(await res.json())).toEqual(["request_id"]);
    await tasks.idle();
    expect(tasks.get("web")).toBeUndefined();
    const again = await app.request("/v1/tasks/web", { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("answers other methods with 405, and leaves CORS to the kernel's router (no wildcard of its own)", async () => {
    const put = await app.request("/v1/tasks", { method: "PUT", headers: { Origin: "http://evil.example" } });
    expect(put.status).toBe(405);
    expect(put.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const notFound = await app.request("/v1/nothing");
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
