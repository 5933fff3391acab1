/**
 * The status page plugin over real HTTP from a real kernel (engine, store, leadership, the
 * recording driver; schedule tasks never due during the test): what `/ui/` serves and with which
 * headers, the overview JSON the page reads, the config switch, and what an HA follower serves.
 * Beyond CTS (no status page).
 */
import { readFileSync } from "node:fs";
import { get as httpsGet } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTlsOptions } from "../../../core/http/api-tls-options.ts";
import { listRegularFiles, readTextFile } from "../../../core/runtime/config-files.ts";
import type { BuiltinPlugin } from "../../../core/kernel/builtin-plugins.ts";
import type { Kernel } from "../../../core/kernel/kernel.ts";
import { createTestKernel } from "../../../core/plugin-testkit/src/create-test-kernel.ts";
import { eventually } from "../../../core/plugin-testkit/src/eventually.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { recordingDriverPlugin } from "../../../harness/driver-recording/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { haConfig } from "../../../harness/ha-consul/ha-harness.ts";
import { makeTestCerts } from "../http-api/helpers/certs.ts";
import { CONTENT_SECURITY_POLICY, nextRunOf } from "../../../plugins/status-page/mod.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";

// Never due during a test: these tasks run only when asked.
const NEVER = "0 0 1 1 *";

describe("status page", () => {
  let daemon: ApiKernel;
  beforeAll(async () => {
    const config = apiConfig({
      tasks: [
        testTask("nightly", { driver: "recording", description: "Runs at night", condition: { type: "schedule", cron: NEVER } }),
        testTask("doomed", { driver: "recording", condition: { type: "schedule", cron: NEVER } }),
        testTask("paused", { driver: "recording", enabled: false, condition: { type: "schedule", cron: "0 0 * * * 2099" } }),
      ],
    });
    daemon = await startApiKernel({ config, extraPlugins: ["status-page"], recording: { fail_tasks: ["doomed"] } });
    // The engine's start-up pass runs the config tasks one after another once the kernel started:
    // an API run asked before doomed's start-up run was queued would end first, and the start-up
    // run after it would be doomed's last run. Ask once the start-up run ended.
    await eventually(() => daemon.tasks.get("doomed")?.events.some((event) => event.trigger?.kind === "startup") === true, "doomed's start-up run", 20_000);
    await daemon.tasks.runNow("doomed", { kind: "api" });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it("serves the page, its script, style and icon with a strict Content-Security-Policy", async () => {
    const redirect = await fetch(`${daemon.url}/ui`, { redirect: "manual" });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get("location")).toBe("/ui/");
    for (const [path, type] of [["/ui/", "text/html"], ["/ui/dom.js", "text/javascript"], ["/ui/runs.js", "text/javascript"], ["/ui/app.js", "text/javascript"], ["/ui/app.css", "text/css"], ["/ui/icon.svg", "image/svg+xml"]]) {
      const response = await fetch(`${daemon.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain(type);
      expect(response.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self';/);
    const html = await (await fetch(`${daemon.url}/ui/`)).text();
    // Nothing inline (the policy would block it) and nothing from another origin.
    expect(html).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect((await fetch(`${daemon.url}/ui/nope.js`)).status).toBe(404);
    // Pages with permalinks: a task's and a run's, the same shell (their script renders them).
    for (const path of ["/ui/tasks/nightly", "/ui/tasks/any%20name/runs/1796290833123-3f9a1c2e"]) {
      const page = await fetch(`${daemon.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toBe(html);
    }
    expect((await fetch(`${daemon.url}/ui/tasks/nightly/runs/x/y`)).status).toBe(404);
    // Every script the shell loads is served and parses (a syntax error would blank every page).
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual(["dom", "api", "stream", "runs", "drift", "run-findings", "overview", "task-edit", "task-delete", "task", "run", "app"].map((name) => `/ui/${name}.js`));
    for (const path of scripts) {
      const response = await fetch(`${daemon.url}${path}`);
      expect(response.headers.get("content-type"), path).toContain("text/javascript");
      const source = await response.text();
      expect(() => new Function(source), path).not.toThrow();
    }
    const post = await fetch(`${daemon.url}/ui/`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers the overview: instance, leadership, Consul, and each task's status, last run and next scheduled run", async () => {
    const overview = await (await fetch(`${daemon.url}/ui/overview.json`)).json();
    // Whether HA is configured: a standalone page asks nothing of /v1/status/cluster (a 405 there).
    expect(overview).toMatchObject({ instance_id: "cts-api-test", is_leader: true, high_availability: false, leader: { id: "cts-api-test" }, consul: { healthy: true } });
    const byName = Object.fromEntries((overview.tasks as { name: string; next_run?: string; last_run: { run_id: string } }[]).map((task) => [task.name, task]));
    expect(Object.keys(byName)).toEqual(["nightly", "doomed", "paused"]);
    // Config tasks run once at start, as in CTS.
    expect(byName.nightly).toEqual({
      name: "nightly", description: "Runs at night", enabled: true, status: "successful", running: false, deleting: false,
      condition: "schedule", cron: NEVER, next_run: nextRunOf(NEVER)!.toISOString(),
      last_run: { success: true, start_time: expect.any(String), end_time: expect.any(String), trigger: "startup", run_id: expect.stringMatching(/^\d{13}-/) },
    });
    // The run id leads to the run's record.
    const record = await (await fetch(`${daemon.url}/v1/tasks/nightly/runs/${byName.nightly!.last_run.run_id}`)).json();
    expect(record.run).toMatchObject({ task: "nightly", outcome: "applied", trigger: { kind: "startup" } });
    // One task only, when asked.
    const one = await (await fetch(`${daemon.url}/ui/overview.json?task=doomed`)).json();
    expect(one.tasks.map((task: { name: string }) => task.name)).toEqual(["doomed"]);
    expect((await (await fetch(`${daemon.url}/ui/overview.json?task=nope`)).json()).tasks).toEqual([]);
    expect(new Date(byName.nightly!.next_run!).getMonth()).toBe(0);
    // Failed at start and when asked: two failures in a row are critical.
    expect(byName.doomed).toMatchObject({
      status: "critical",
      last_run: { success: false, trigger: "api", error: expect.stringContaining("configured to fail") },
    });
    // A disabled schedule task has no next run; a 6-field CTS expression has a year last.
    expect(byName.paused.next_run).toBeUndefined();
    expect(nextRunOf("0 0 * * * 2099")!.getUTCFullYear()).toBe(2099);
  });

  it("is switched off with plugin \"status-page\" { options = { enabled = false } }, and a bad value names the field", async () => {
    const off = await startApiKernel({
      config: apiConfig({ plugins: [{ name: "status-page", source: "", options: { enabled: false } }] }),
      extraPlugins: ["status-page"],
    });
    try {
      expect((await fetch(`${off.url}/ui/`)).status).toBe(404);
      expect((await fetch(`${off.url}/v1/health`)).status).toBe(200);
    } finally {
      await off.stop();
    }
    const bad = startApiKernel({ config: apiConfig({ plugins: [{ name: "status-page", source: "", options: { enabled: "no" } }] }), extraPlugins: ["status-page"] });
    await expect(bad).rejects.toThrow(/status-page[\s\S]*enabled[\s\S]*boolean/);
  });
});

describe("status page on an HA cluster", () => {
  let consul: TestConsulDevServer;
  const kernels: Kernel[] = [];
  beforeAll(async () => {
    consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
    const builtins: BuiltinPlugin[] = [
      "consul-client", "vault-client", "consul-inputs", "condition-schedule", "task-engine", "ha-consul", "http-api", "status-page",
    ].map((id) => ({ id, load: () => import(`../../../plugins/${id}/mod.ts`) }));
    for (const id of ["cts-a", "cts-b"]) {
      const config = apiConfig({
        id,
        consul: testConsulConfig({
          address: consul.address, kv_path: "", service_registration: { ...testConsulConfig().service_registration, enabled: false },
        }),
        high_availability: haConfig("page"),
        tasks: [testTask("nightly", { driver: "recording", condition: { type: "schedule", cron: NEVER } })],
      });
      const { kernel } = await createTestKernel({
        config, builtins, plugins: [recordingDriverPlugin({})], kernel: { httpListen: { hostname: "127.0.0.1", port: 0 } },
      });
      kernels.push(kernel);
    }
  }, 60_000);
  afterAll(async () => {
    for (const kernel of kernels) await kernel.stop();
    await consul?.stop();
  });

  it("a follower serves the page, its own event stream and an overview without tasks that names the leader", async () => {
    type Overview = { instance_id: string; is_leader: boolean; leader?: { id: string }; tasks?: unknown[] };
    const overviews = await eventually(async () => {
      const answers = await Promise.all(kernels.map(async (kernel) => (await fetch(`${kernel.httpUrl}/ui/overview.json`)).json() as Promise<Overview>));
      const leader = answers.find((answer) => answer.is_leader);
      // The new leader loads its tasks just after taking the lock: wait for them too.
      const settled = leader && leader.tasks?.length === 1 && answers.every((answer) => answer.leader?.id === leader.instance_id);
      return settled ? answers : undefined;
    }, "one leader with its task, that both instances know", 20_000, 50);
    const leader = overviews.find((answer) => answer.is_leader)!;
    const follower = overviews.find((answer) => !answer.is_leader)!;
    expect(leader.tasks).toHaveLength(1);
    expect(follower.tasks).toBeUndefined();
    const followerUrl = kernels[overviews.indexOf(follower)]!.httpUrl!;
    expect((await fetch(`${followerUrl}/ui/`)).status).toBe(200);
    // Task reads on a follower redirect (CTS); the page and the stream are the follower's own.
    expect((await fetch(`${followerUrl}/v1/status/tasks`)).status).toBe(400);
    const stream = await fetch(`${followerUrl}/v1/events?last_event_id=0`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await stream.body!.cancel();
  });
});

describe("status page and event stream over TLS", () => {
  it("are served on the API's TLS listener like every API read", async () => {
    const certs = makeTestCerts();
    const files = { readText: readTextFile, listFiles: listRegularFiles };
    const tls = await apiTlsOptions({ enabled: true, cert: certs.serverCert, key: certs.serverKey, ca_cert: "", ca_path: "", verify_incoming: false }, files);
    const daemon = await startApiKernel({ tls: tls!, extraPlugins: ["status-page"] });
    const ca = readFileSync(certs.caCert, "utf8");
    /** The status and the first chunk of the body, read over HTTPS trusting the test CA. */
    const firstChunk = (path: string) => new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpsGet(`${daemon.url}${path}`, { ca }, (response) => {
        response.once("data", (chunk: Buffer) => {
          resolve({ status: response.statusCode ?? 0, text: chunk.toString() });
          request.destroy();
        });
      });
      request.on("error", reject);
    });
    try {
      expect(daemon.url).toMatch(/^https:/);
      const page = await firstChunk("/ui/");
      expect(page).toMatchObject({ status: 200, text: expect.stringContaining("<!doctype html>") });
      const stream = await firstChunk("/v1/events");
      expect(stream.status).toBe(200);
      expect(stream.text).toContain("event: ready");
      await expect(fetch(`${daemon.url.replace("https:", "http:")}/ui/`)).rejects.toThrow();
    } finally {
      await daemon.stop();
      certs.cleanup();
    }
  });
});
