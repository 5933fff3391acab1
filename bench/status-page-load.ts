/**
 * @module Benchmark of the status page's load (issue 28): at 200 tasks × 1,000 run records, what a
 * page load reads (API requests, Consul KV reads and their bytes with HA, run records with the
 * memory store) and its time to first render (navigation to the page showing its data), for the
 * overview (`/ui/`), a task page and a run page; standalone (memory store) and HA (Consul KV).
 *
 * Run:  npm run bench -- status-page-load
 *       BENCH_TASKS=50 BENCH_RECORDS=200 npx deno run -A bench/status-page-load.ts
 *       CTS_ROOT=/path/to/an/older/tree npx deno run -A bench/status-page-load.ts   (the "before" figures:
 *       that tree's kernel, plugins and page; its page is the overview only)
 *       BENCH_MODES=ha ...   (standalone, ha or both: the default)
 *
 * Measured (2 shared cores, one run each): before (the tree this branch started from), the overview
 * asked /runs?limit=5 of every task: standalone 206 requests, 4.8 s to first render; with HA 200
 * Consul reads of 172.6 MiB, 22 s. After: the overview reads no record (0 Consul reads, 0.9 s), a
 * task page 21 reads (83 KiB: the key listing and 20 summaries), a run page 2 reads (6 KiB).
 *
 * The daemon is an in-process kernel (engine, store, status page, HTTP API, recording driver, the
 * embedded Consul behind a recording proxy); schedule tasks that are never due ran once at start.
 * The history is written straight into the store (memory: its putRun; Consul: the server's state).
 * Chromium (Debian's) loads each page three times; the table has the median. The page counts as
 * rendered when `#page[data-loaded]` appears (the older page: when its task cards appear, which it
 * draws once every task's runs are read).
 */
import process from "node:process";
import puppeteer, { type Page } from "puppeteer-core";
import type { CtsConfig, RunRecord, TaskStore } from "../core/plugin-api/mod.ts";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import { startRecordingProxy } from "../harness/ha-consul/recording-proxy.ts";
import { seededSummary, seedRunHistory } from "../harness/status-page/seed-run-history.ts";

const TASKS = Number(process.env.BENCH_TASKS ?? 200);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1000);
const ROOT = process.env.CTS_ROOT ?? new URL("..", import.meta.url).pathname;
const LOADS = 3;
const NEVER = "0 0 1 1 *";
const taskName = (n: number) => `task_${String(n).padStart(3, "0")}`;

const { createTestKernel } = await import(`${ROOT}/core/plugin-testkit/src/create-test-kernel.ts`);
const { testConfig, testConsulConfig, testTask } = await import(`${ROOT}/core/plugin-testkit/src/test-config.ts`);
const { recordingDriverPlugin } = await import(`${ROOT}/harness/driver-recording/mod.ts`);
const { kvLayoutOf } = await import(`${ROOT}/plugins/ha-consul/src/kv-layout.ts`);
const tokens = await import(`${ROOT}/core/plugin-api/mod.ts`);

interface LoadFigures {
  readonly requests: number;
  readonly apiBytes: number;
  readonly consulReads: number;
  readonly consulBytes: number;
  readonly ms: number;
}

function config(consulAddress: string, ha: boolean): CtsConfig {
  const tasks = Array.from({ length: TASKS }, (_, n) => testTask(taskName(n), { driver: "recording", condition: { type: "schedule", cron: NEVER } }));
  return testConfig({
    log_level: "WARN", port: 0, id: "cts-bench-1", driver: { name: "recording", options: {} }, tasks,
    buffer_period: { enabled: false, min: 0, max: 0 },
    plugins: [{ name: "task-engine", source: "builtin:task-engine", options: { run_history: { max_runs_per_task: RECORDS } } }],
    consul: testConsulConfig({ address: consulAddress, kv_path: "", service_registration: { ...testConsulConfig().service_registration, enabled: false } }),
    ...(ha ? { high_availability: { cluster: { name: "bench", storage: { parent_path: "consul-terraform-sync/", namespace: "", session_ttl: 60_000 } }, instance: { address: "" } } } : {}),
  });
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function run(ha: boolean): Promise<Map<string, LoadFigures>> {
  const consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  const proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
  const plugins = ["consul-client", "vault-client", "consul-inputs", "condition-schedule", "task-engine", ha ? "ha-consul" : "task-store-memory",
    ha ? undefined : "leadership-standalone", "http-api", "status-page"].filter((id): id is string => id !== undefined);
  const { kernel } = await createTestKernel({
    config: config(proxy.address, ha),
    builtins: plugins.map((id) => ({ id, load: () => import(`${ROOT}/plugins/${id}/mod.ts`) })),
    plugins: [recordingDriverPlugin({ keep_inputs: false })],
    kernel: { httpListen: { hostname: "127.0.0.1", port: 0 } },
  });
  const tasks = kernel.resolve(tokens.taskManagerToken);
  const deadline = Date.now() + 300_000;
  while (tasks.list().length < TASKS || tasks.list().some((state: { events: unknown[] }) => state.events.length === 0)) {
    if (Date.now() > deadline) throw new Error("the start-up runs did not end");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Every start-up run and its writes are done before anything is measured.
  await tasks.idle();
  const shownIndex = Math.min(42, TASKS - 1);
  const shown = taskName(shownIndex);
  let shownRun = "";
  if (ha) {
    const layout = kvLayoutOf(config("", true).high_availability);
    // An older tree keeps whole records in one key each: no detail keys to write.
    const detailed = "runDetailKey" in layout ? [shown] : [];
    const ids = await seedRunHistory(consul, layout, Array.from({ length: TASKS }, (_, n) => taskName(n)), RECORDS, detailed);
    shownRun = ids.get(shown)!.at(-1)!;
  } else {
    const store: TaskStore = kernel.resolve(tokens.taskStoreToken);
    const keep = { maxRunsPerTask: RECORDS, maxAgeMs: 3600_000 * 24 * 30 };
    const now = Date.now();
    for (let t = 0; t < TASKS; t++) {
      for (let n = 0; n < RECORDS; n++) {
        const id = `${String(now - (RECORDS - n) * 60_000).padStart(13, "0")}-${String(n).padStart(8, "0")}`;
        const record: RunRecord = seededSummary(taskName(t), id, n);
        await store.putRun!(record, keep);
        if (t === shownIndex) shownRun = id;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  await tasks.idle();
  const url = kernel.httpUrl as string;
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium", headless: true, protocolTimeout: 900_000, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const figures = new Map<string, LoadFigures>();
  const oldPage = !(await (await fetch(`${url}/ui/`)).text()).includes("/ui/task.js");
  const paths: [string, string][] = oldPage
    ? [["overview", "/ui/"]]
    : [["overview", "/ui/"], ["task page", `/ui/tasks/${shown}`], ["run page", `/ui/tasks/${shown}/runs/${shownRun}`]];
  for (const [name, path] of paths) {
    const loads: LoadFigures[] = [];
    for (let n = 0; n < LOADS; n++) {
      const page: Page = await browser.newPage();
      let requests = 0;
      let apiBytes = 0;
      page.on("requestfinished", async (request) => {
        const response = request.response();
        if (!response || request.url().endsWith("/v1/events")) return;
        requests++;
        apiBytes += (await response.buffer().catch(() => new Uint8Array())).byteLength;
      });
      const from = proxy.exchanges.length;
      const started = performance.now();
      await page.goto(`${url}${path}`, { waitUntil: "domcontentloaded" });
      // The older page renders its task cards once every task's runs are read.
      if (oldPage) await page.waitForFunction((n) => document.querySelectorAll("article.card").length === n, { timeout: 600_000, polling: 20 }, TASKS);
      else await page.waitForSelector("#page[data-loaded]", { timeout: 600_000 });
      const ms = performance.now() - started;
      // KV reads that answer at once (a leader's session renewals and blocking watches go on beside the load).
      const reads = proxy.exchanges.slice(from).filter((exchange) => exchange.method === "GET" && exchange.path.startsWith("/v1/kv/") && !exchange.query.has("index"));
      loads.push({ requests, apiBytes, consulReads: reads.length, consulBytes: reads.reduce((sum, exchange) => sum + exchange.bytes, 0), ms });
      await page.close();
    }
    figures.set(name, {
      requests: median(loads.map((l) => l.requests)), apiBytes: median(loads.map((l) => l.apiBytes)),
      consulReads: median(loads.map((l) => l.consulReads)), consulBytes: median(loads.map((l) => l.consulBytes)), ms: median(loads.map((l) => l.ms)),
    });
  }
  await browser.close();
  await kernel.stop();
  await proxy.close();
  await consul.stop();
  return figures;
}

const kib = (bytes: number) => bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`${TASKS} tasks × ${RECORDS} records, ${ROOT === new URL("..", import.meta.url).pathname ? "this tree" : ROOT}; median of ${LOADS} loads\n`);
console.log("| mode | page | HTTP requests (all) | bytes received (but the stream) | Consul KV reads | Consul bytes read | time to first render |");
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const ha of (process.env.BENCH_MODES ?? "standalone,ha").split(",").map((mode) => mode === "ha")) {
  for (const [name, f] of await run(ha)) {
    console.log(`| ${ha ? "HA (Consul KV)" : "standalone"} | ${name} | ${f.requests} | ${kib(f.apiBytes)} | ${ha ? f.consulReads : "—"} | ${ha ? kib(f.consulBytes) : "—"} | ${Math.round(f.ms)} ms |`);
  }
}
process.exit(0);
