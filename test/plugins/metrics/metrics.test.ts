/**
 * GET /metrics over real HTTP from a real kernel: the real engine, store, leadership and
 * consul-client against the embedded Consul server, with the recording driver (which fails the
 * task "doomed" and makes every apply last APPLY_MS). The output is parsed strictly, so every line must be valid exposition format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { eventually } from "../../../core/plugin-testkit/src/eventually.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { VERSION } from "../../../core/version.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";
import { registerInstance } from "../../../harness/task-engine/engine-harness.ts";
import { parseExposition, sampleValue, type ParsedExposition } from "./exposition-parser.ts";

// Never due during a test: these tasks run only when asked.
const NEVER = "0 0 1 1 *";
// Every apply takes this long, so a run is observable while it lasts and has a duration.
const APPLY_MS = 400;
const ODD_NAME = 'odd "quoted" \\ back\nslash';

function scheduledTask(name: string, overrides: Partial<TaskConfig> = {}): TaskConfig {
  return testTask(name, { condition: { type: "schedule", cron: NEVER }, driver: "recording", ...overrides });
}

describe("metrics plugin", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiKernel;
  let consulStopped = false;

  async function scrape(): Promise<ParsedExposition> {
    const response = await fetch(`${daemon.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4(;|$)/);
    return parseExposition(await response.text());
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await registerInstance(consul.url, "web", "web-1");
    const config = apiConfig({
      consul: testConsulConfig({
        address: consul.address,
        kv_path: "",
        service_registration: { ...testConsulConfig().service_registration, enabled: false },
      }),
      tasks: [testTask("web_task", { driver: "recording" })],
    });
    daemon = await startApiKernel({ config, extraPlugins: ["metrics"], recording: { fail_tasks: ["doomed"], apply_delay_ms: APPLY_MS } });
    // The startup pass runs the services task once.
    await eventually(() => daemon.tasks.get("web_task")?.events.length === 1, "web_task's startup run", 20_000, 20);
  });
  afterAll(async () => {
    await daemon?.stop();
    if (!consulStopped) await consul?.stop();
  });

  it("reports build, leadership, the Consul connection and the shared watches", async () => {
    const metrics = await scrape();
    expect(sampleValue(metrics, "cts_build_info", { version: VERSION })).toBe(1);
    expect(sampleValue(metrics, "cts_leader")).toBe(1);
    expect(sampleValue(metrics, "cts_consul_connection_healthy")).toBe(1);
    expect(sampleValue(metrics, "cts_consul_connection_failures")).toBe(0);
    // web_task's services condition holds one blocking query with one subscriber at least.
    expect(sampleValue(metrics, "cts_watches_open")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(metrics, "cts_watch_subscribers")).toBeGreaterThanOrEqual(1);
    for (const sampleName of new Set(metrics.samples.map((sample) => sample.name))) {
      // A histogram's samples carry suffixes; its TYPE and HELP name the family.
      const family = sampleName.replace(/_(bucket|sum|count)$/, "");
      const name = metrics.types.get(family) === "histogram" ? family : sampleName;
      expect(metrics.types.get(name), `TYPE of ${name}`).toBeDefined();
      expect(metrics.helps.get(name), `HELP of ${name}`).toBeDefined();
    }
    expect(metrics.types.get("cts_task_runs_total")).toBe("counter");
    expect(metrics.types.get("cts_leader")).toBe("gauge");
  });

  it("follows a successful run: last run, its time and duration, and the run counter", async () => {
    await daemon.tasks.create(scheduledTask("good"));
    let metrics = await scrape();
    expect(sampleValue(metrics, "cts_task_running", { task: "good" })).toBe(0);
    expect(sampleValue(metrics, "cts_task_last_run_success", { task: "good" })).toBeUndefined();
    expect(sampleValue(metrics, "cts_task_last_run_timestamp_seconds", { task: "good" })).toBeUndefined();
    expect(sampleValue(metrics, "cts_task_runs_total", { task: "good" })).toBeUndefined();

    const event = await daemon.tasks.runNow("good", { kind: "api" });
    expect(event?.success).toBe(true);
    metrics = await scrape();
    expect(sampleValue(metrics, "cts_task_last_run_success", { task: "good" })).toBe(1);
    expect(sampleValue(metrics, "cts_task_last_run_timestamp_seconds", { task: "good" })).toBe(Date.parse(event!.end_time) / 1000);
    expect(sampleValue(metrics, "cts_task_last_run_duration_seconds", { task: "good" }))
      .toBe((Date.parse(event!.end_time) - Date.parse(event!.start_time)) / 1000);
    expect(sampleValue(metrics, "cts_task_last_run_duration_seconds", { task: "good" })).toBeGreaterThanOrEqual(APPLY_MS / 1000);
    expect(sampleValue(metrics, "cts_task_runs_total", { task: "good", result: "success" })).toBe(1);
    expect(sampleValue(metrics, "cts_task_running", { task: "good" })).toBe(0);

    const second = daemon.tasks.runNow("good", { kind: "api" });
    await eventually(async () => sampleValue(await scrape(), "cts_task_running", { task: "good" }) === 1, "good running in /metrics", 20_000, 10);
    await second;
    metrics = await scrape();
    expect(sampleValue(metrics, "cts_task_running", { task: "good" })).toBe(0);
    // Forced runs apply even when the inputs are unchanged.
    const runs = ["success", "skipped"].map((result) => sampleValue(metrics, "cts_task_runs_total", { task: "good", result }) ?? 0);
    expect(runs[0]! + runs[1]!).toBe(2);
    expect(sampleValue(metrics, "cts_task_runs_total", { task: "web_task", result: "success" })).toBe(1);
  });

  it("follows a failing run", async () => {
    await daemon.tasks.create(scheduledTask("doomed"));
    const event = await daemon.tasks.runNow("doomed", { kind: "api" });
    expect(event?.success).toBe(false);
    const metrics = await scrape();
    expect(sampleValue(metrics, "cts_task_last_run_success", { task: "doomed" })).toBe(0);
    expect(sampleValue(metrics, "cts_task_last_run_timestamp_seconds", { task: "doomed" })).toBe(Date.parse(event!.end_time) / 1000);
    expect(sampleValue(metrics, "cts_task_runs_total", { task: "doomed", result: "error" })).toBe(1);
    expect(sampleValue(metrics, "cts_task_runs_total", { task: "doomed", result: "success" })).toBeUndefined();
    expect(sampleValue(metrics, "cts_tasks", { status: "errored" })).toBe(1);
  });

  // Beyond CTS (issue 14): run durations as a histogram, skipped triggers by reason.
  it("histograms run durations per task and result, and counts skipped triggers by reason", async () => {
    await daemon.tasks.create(scheduledTask("timed"));
    for (let n = 0; n < 2; n++) await daemon.tasks.runNow("timed", { kind: "api" });
    let metrics = await scrape();
    expect(metrics.types.get("cts_task_run_duration_seconds")).toBe("histogram");
    const bucket = (le: string) => sampleValue(metrics, "cts_task_run_duration_seconds_bucket", { task: "timed", result: "success", le });
    expect(sampleValue(metrics, "cts_task_run_duration_seconds_count", { task: "timed", result: "success" })).toBe(2);
    expect(bucket("+Inf")).toBe(2);
    // Every apply lasts APPLY_MS (0.4 s): none fits the 0.25 s bucket.
    expect(bucket("0.1")).toBe(0);
    expect(bucket("0.25")).toBe(0);
    const les = ["0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60", "120", "300", "+Inf"];
    const counts = les.map((le) => bucket(le)!);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(sampleValue(metrics, "cts_task_run_duration_seconds_sum", { task: "timed", result: "success" })).toBeGreaterThanOrEqual(2 * APPLY_MS / 1000);

    // The KV key written again with its value and new flags: Consul reports new data (a new index;
    // a write that changes nothing at all gets none), the rendered inputs are the same.
    const put = (value: string, flags = 0) => fetch(`${consul.url}/v1/kv/metrics/flag?flags=${flags}`, { method: "PUT", body: value });
    await put("on");
    await daemon.tasks.create(testTask("kv_task", {
      condition: { type: "consul-kv", path: "metrics/flag", recurse: false, datacenter: "", namespace: "", use_as_module_input: true },
      driver: "recording",
    }));
    await put("on", 7);
    await eventually(async () => {
      metrics = await scrape();
      return sampleValue(metrics, "cts_task_skipped_triggers_total", { task: "kv_task", reason: "unchanged_inputs" }) === 1;
    }, "a skipped trigger of kv_task in /metrics", 20_000, 20);
    expect(metrics.types.get("cts_task_skipped_triggers_total")).toBe("counter");
    expect(sampleValue(metrics, "cts_task_run_duration_seconds_count", { task: "kv_task", result: "success" })).toBeUndefined();
  });

  it("counts tasks by status and enabled state, a disabled task included", async () => {
    await daemon.tasks.create(scheduledTask("off", { enabled: false }));
    const metrics = await scrape();
    expect(sampleValue(metrics, "cts_tasks_enabled", { enabled: "false" })).toBe(1);
    expect(sampleValue(metrics, "cts_task_running", { task: "off" })).toBe(0);
    expect(sampleValue(metrics, "cts_task_last_run_success", { task: "off" })).toBeUndefined();
    const states = daemon.tasks.list();
    expect(sampleValue(metrics, "cts_tasks_enabled", { enabled: "true" })).toBe(states.filter((s) => s.config.enabled).length);
    for (const status of ["successful", "errored", "critical", "unknown"]) {
      expect(sampleValue(metrics, "cts_tasks", { status }), status).toBe(states.filter((s) => s.status === status).length);
    }
    expect(sampleValue(metrics, "cts_tasks", { status: "unknown" })).toBeGreaterThanOrEqual(1);
  });

  it("escapes quotes, backslashes and newlines in label values", async () => {
    await daemon.tasks.create(scheduledTask(ODD_NAME, { working_dir: "sync-tasks/odd" }));
    await daemon.tasks.runNow(ODD_NAME, { kind: "api" });
    const text = await (await fetch(`${daemon.url}/metrics`)).text();
    expect(text).toContain('cts_task_running{task="odd \\"quoted\\" \\\\ back\\nslash"} 0');
    const metrics = parseExposition(text);
    expect(sampleValue(metrics, "cts_task_last_run_success", { task: ODD_NAME })).toBe(1);
    expect(sampleValue(metrics, "cts_task_runs_total", { task: ODD_NAME, result: "success" })).toBe(1);
  });

  it("answers only GET and HEAD on exactly /metrics", async () => {
    const post = await fetch(`${daemon.url}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    await post.body?.cancel();
    const head = await fetch(`${daemon.url}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const below = await fetch(`${daemon.url}/metrics/extra`);
    expect(below.status).toBe(404);
    await below.body?.cancel();
  });

  // Last: Consul stays down for the rest of this file.
  it("shows a Consul outage", async () => {
    expect(sampleValue(await scrape(), "cts_consul_connection_healthy")).toBe(1);
    consulStopped = true;
    await consul.stop();
    const down = await eventually(async () => {
      const metrics = await scrape();
      return sampleValue(metrics, "cts_consul_connection_healthy") === 0 && metrics;
    }, "the outage in /metrics", 20_000, 50);
    expect(sampleValue(down, "cts_consul_connection_failures")).toBeGreaterThanOrEqual(1);
  });
});
