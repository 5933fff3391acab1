/**
 * Black box: the real daemon process driven with plain `curl` only, through the same lifecycle a
 * CTS user scripts (create with run=now, status, disable, enable with run=now, inspect, delete),
 * plus CTS's error shapes, CORS and the cluster endpoint without HA.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { startApiDaemon, until, type ApiDaemon } from "../plugins/http-api/helpers/api-daemon.ts";

interface CurlResult {
  readonly status: number;
  readonly headers: string;
  readonly json: any;
}

describe("API with curl (black box)", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiDaemon;

  // Async: the embedded Consul runs in this process and must keep answering the daemon meanwhile.
  async function curl(method: string, path: string, body?: unknown): Promise<CurlResult> {
    const args = ["-s", "-i", "-X", method, `${daemon.url}${path}`];
    if (body !== undefined) args.push("-H", "Content-Type: application/json", "--data", JSON.stringify(body));
    const { stdout: raw } = await promisify(execFile)("/usr/bin/curl", args, { encoding: "utf8" });
    const split = raw.indexOf("\r\n\r\n");
    const headers = raw.slice(0, split);
    const text = raw.slice(split + 4);
    return { status: Number(/^HTTP\/\S+ (\d+)/.exec(headers)![1]), headers, json: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await fetch(`${consul.url}/v1/agent/service/register`, {
      method: "PUT",
      body: JSON.stringify({ ID: "api-1", Name: "api", Port: 9090 }),
    });
    daemon = await startApiDaemon({ consulAddress: consul.address });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  it("runs the task lifecycle", async () => {
    const task = { name: "curl_task", module: "./module", condition: { services: { names: ["api"] } } };
    const created = await curl("POST", "/v1/tasks?run=now", { task });
    expect(created.status).toBe(201);
    expect(created.json.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.task).toMatchObject({ name: "curl_task", enabled: true, module_input: {}, providers: [] });

    const status = await curl("GET", "/v1/status/tasks/curl_task?include=events");
    expect(status.status).toBe(200);
    expect(status.json.curl_task).toMatchObject({ status: "successful", enabled: true });
    expect(status.json.curl_task.events).toHaveLength(1);
    expect((await curl("GET", "/v1/status")).json.task_summary.status.successful).toBe(1);

    expect((await curl("PATCH", "/v1/tasks/curl_task", { enabled: false })).json).toEqual({});
    expect((await curl("GET", "/v1/tasks/curl_task")).json.task.enabled).toBe(false);
    const inspect = await curl("PATCH", "/v1/tasks/curl_task?run=inspect", { enabled: true });
    expect(inspect.json.inspect).toMatchObject({ changes_present: true, plan: "recording plan for curl_task: 1 service instance(s)" });
    expect((await curl("GET", "/v1/tasks/curl_task")).json.task.enabled).toBe(false);
    expect((await curl("PATCH", "/v1/tasks/curl_task?run=now", { enabled: true })).status).toBe(200);
    expect((await curl("GET", "/v1/status/tasks/curl_task?include=events")).json.curl_task.events).toHaveLength(2);

    const listed = await curl("GET", "/v1/tasks");
    expect(listed.json.tasks.map((t: { name: string }) => t.name)).toEqual(["curl_task"]);

    const deleted = await curl("DELETE", "/v1/tasks/curl_task");
    expect(deleted.status).toBe(202);
    await until("deletion", async () => ((await curl("GET", "/v1/tasks/curl_task")).status === 404 ? true : undefined));
    expect(daemon.records().filter((r) => r.op === "apply" && r.task === "curl_task")).toHaveLength(2);
  });

  it("answers errors in CTS's shapes, OPTIONS with 200 (CORS headers only for allowed origins, beyond CTS)", async () => {
    const dup = { name: "x", module: "m", condition: { services: { names: ["api"] } }, bogus: 1 };
    const bad = await curl("POST", "/v1/tasks", { task: dup });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { message: expect.stringContaining("bogus") }, request_id: expect.any(String) });
    expect(bad.headers).not.toMatch(/access-control-allow-origin/i);

    const legacy = await curl("GET", "/v1/status/tasks?status=sideways");
    expect(legacy.status).toBe(400);
    expect(Object.keys(legacy.json)).toEqual(["error"]);

    const cluster = await curl("GET", "/v1/status/cluster");
    expect(cluster.status).toBe(405);
    expect(cluster.json.error.message).toBe("this endpoint is only available with high availability configured");

    const options = await curl("OPTIONS", "/v1/tasks");
    expect(options.status).toBe(200);
    expect(options.headers).not.toMatch(/access-control-allow-methods/i);
    expect((await curl("GET", "/v1/health")).json).toEqual({});
    expect((await curl("GET", "/v1/openapi.json")).json.paths["/v1/tasks"]).toBeDefined();
  });
});
