/**
 * What a page load reads from Consul with HA at 200 tasks × 1,000 run records (beyond CTS): a
 * leader (in-process kernel: engine, Consul KV store, HTTP API, status page, recording driver)
 * behind a proxy that records every exchange with the embedded Consul; the history written
 * straight into Consul's state; each page loaded in Chromium. The overview reads no record, a task
 * page reads the key listing and the 20 summaries it shows, a run page that record's two keys.
 * (Before this, the overview's `/runs?limit=5` per task read every record of every task: about
 * 184 MiB, bench/status-page-load.ts.)
 */
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskManagerToken, type CtsConfig } from "../../../core/plugin-api/mod.ts";
import { createTestKernel } from "../../../core/plugin-testkit/src/create-test-kernel.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import type { Kernel } from "../../../core/kernel/kernel.ts";
import { kvLayoutOf } from "../../../plugins/ha-consul/src/kv-layout.ts";
import { recordingDriverPlugin } from "../../../harness/driver-recording/mod.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { until } from "../../../harness/until.ts";
import { haConfig, startHaConsul } from "../../../harness/ha-consul/ha-harness.ts";
import { type RecordingProxy, startRecordingProxy } from "../../../harness/ha-consul/recording-proxy.ts";
import { apiConfig } from "../http-api/helpers/api-kernel.ts";
import { launchChromium, openPage, screenshot, textOf, watchedPage } from "./browser-support.ts";
import { seedRunHistory } from "../../../harness/status-page/seed-run-history.ts";

const TASKS = 200;
const RECORDS = 1000;
const shown = "task_042";
const name = (n: number) => `task_${String(n).padStart(3, "0")}`;

let consul: TestConsulDevServer;
let proxy: RecordingProxy;
let kernel: Kernel;
let browser: Browser;
let ids: Map<string, string[]>;

beforeAll(async () => {
  consul = await startHaConsul();
  proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
  const ha = haConfig("page-load", { ttlMs: 60_000 });
  const config: CtsConfig = apiConfig({
    high_availability: ha,
    consul: testConsulConfig({ address: proxy.address, kv_path: "", service_registration: { ...testConsulConfig().service_registration, enabled: false } }),
    // Disabled: nothing runs at start (what a page load reads does not depend on it), so the setup is quick.
    tasks: Array.from({ length: TASKS }, (_, n) => testTask(name(n), { driver: "recording", enabled: false, condition: { type: "schedule", cron: "0 0 1 1 *" } })),
    plugins: [{ name: "task-engine", source: "builtin:task-engine", options: { run_history: { max_runs_per_task: RECORDS } } }],
  });
  const builtins = ["consul-client", "vault-client", "consul-inputs", "condition-schedule", "task-engine", "ha-consul", "http-api", "status-page"]
    .map((id) => ({ id, load: () => import(`../../../plugins/${id}/mod.ts`) }));
  ({ kernel } = await createTestKernel({
    config, builtins, plugins: [recordingDriverPlugin({ keep_inputs: false })], kernel: { httpListen: { hostname: "127.0.0.1", port: 0 } },
  }));
  const tasks = kernel.resolve(taskManagerToken);
  await until("the leader's tasks", () => (tasks.list().length === TASKS ? true : undefined), 120_000, 100);
  await tasks.idle();
  ids = await seedRunHistory(consul, kvLayoutOf(ha), Array.from({ length: TASKS }, (_, n) => name(n)), RECORDS, [shown]);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await kernel?.stop();
  await proxy?.close();
  await consul?.stop();
});

/** Loads `path` in a fresh tab; returns what was read from Consul KV meanwhile (at-once reads: watches and sessions go on beside). */
async function load(path: string, ready: string) {
  const page = (await watchedPage(browser)).page;
  const from = proxy.exchanges.length;
  await openPage(page, `${kernel.httpUrl}${path}`);
  await page.waitForSelector(ready);
  const reads = proxy.exchanges.slice(from).filter((exchange) => exchange.method === "GET" && exchange.path.startsWith("/v1/kv/") && !exchange.query.has("index"));
  return { page, reads, bytes: reads.reduce((sum, exchange) => sum + exchange.bytes, 0) };
}

describe(`page loads with HA at ${TASKS} tasks × ${RECORDS} run records`, () => {
  it("the overview reads no run record", async () => {
    const { page, reads } = await load("/ui/", ".task-table tbody tr");
    expect(await page.$$eval(".task-table tbody tr", (rows) => rows.length)).toBe(TASKS);
    expect(reads.map((read) => read.path)).toEqual([]);
    await page.close();
  }, 60_000);

  it("a task page reads the key listing and the 20 summaries it shows; its older page the same", async () => {
    const taskIds = ids.get(shown)!;
    const first = await load(`/ui/tasks/${shown}`, ".run-table tbody tr");
    expect(await textOf(first.page, "section:has(.run-table) h2")).toBe(`Runs (${RECORDS.toLocaleString("en-US")} in all)`);
    const runsPath = `/v1/kv/consul-terraform-sync/page-load/runs/${shown}/`;
    expect(first.reads.filter((read) => read.query.has("keys")).map((read) => read.path)).toEqual([runsPath]);
    expect(first.reads.filter((read) => !read.query.has("keys"))).toHaveLength(20);
    expect(first.reads.every((read) => read.path.startsWith(runsPath))).toBe(true);
    // The key listing is most of it: 1,000 key names.
    expect(first.bytes).toBeLessThan(120 * 1024);
    await screenshot(first.page, "ha-task-page");
    const next = await first.page.$eval(".pager a", (a) => a.getAttribute("href"));
    await first.page.close();
    const older = await load(next!, ".run-table tbody tr");
    expect(older.reads).toHaveLength(21);
    expect(await older.page.$eval(".run-table tbody tr th a", (a) => a.getAttribute("href"))).toBe(`/ui/tasks/${shown}/runs/${taskIds[RECORDS - 21]}`);
    await older.page.close();
  }, 60_000);

  it("a run page reads that record's summary and detail", async () => {
    const id = ids.get(shown)![RECORDS - 1]!;
    const { page, reads, bytes } = await load(`/ui/tasks/${shown}/runs/${id}`, "pre.log");
    expect(reads.map((read) => read.path).sort()).toEqual([
      `/v1/kv/consul-terraform-sync/page-load/run-details/${shown}/${id}`, `/v1/kv/consul-terraform-sync/page-load/runs/${shown}/${id}`,
    ]);
    expect(bytes).toBeLessThan(16 * 1024);
    expect(await textOf(page, "pre[aria-label='Plan output']")).toMatch(/Plan: 0 to add, 1 to change/);
    await page.close();
  }, 60_000);
});
