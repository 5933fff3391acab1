/**
 * @module Benchmark: what a run's end costs the engine when the webhook notifier listens, i.e. the
 * time `DaemonEvents.publish({ type: "run.ended" })` takes (the notifier builds the masked body and
 * queues it there; sending happens elsewhere). Three receivers on 127.0.0.1: none (no notifier
 * loaded, the bus alone), one that answers 204 at once, and one that never answers (its queue
 * stays full, so every further notification drops the oldest).
 *
 * Run:  npm run bench -- notifier-queue     (Deno)
 * Reports the median and p99 of 5 000 publications per case after 500 warm-up ones, and what the
 * receiver got.
 */
import { createServer, type ServerResponse } from "node:http";
import { createKernel } from "../core/kernel/kernel.ts";
import { createLogSink } from "../core/logging/log-sink.ts";
import { daemonEventsToken, type RunRecord } from "../core/plugin-api/mod.ts";
import { testConfig } from "../core/plugin-testkit/src/test-config.ts";

const WARM_UP = 500;
const SAMPLES = 5000;

const held: ServerResponse[] = [];
let answered = 0;
const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    if (request.url === "/hang") return void held.push(response);
    answered++;
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

function run(i: number): RunRecord {
  return {
    id: `${1796290833123 + i}-0000abcd`, task: `task-${i % 20}`, trigger: { kind: "dependency", detail: "/v1/health/service/web" },
    change: { services: { added: [`web-${i}.node-1.dc1`], removed: [], changed: [] } }, outcome: "failed",
    error: `Cannot apply task "task-${i % 20}": exit status 1`, started_at: new Date().toISOString(),
    ended_at: new Date().toISOString(), duration_ms: 1200, instance_id: "cts-01",
  };
}

async function measure(path: string | undefined): Promise<{ median: number; p99: number }> {
  const plugins = path === undefined ? [] : [{
    name: "notifier-webhook", source: "builtin:notifier-webhook",
    options: { url: `${base}${path}`, secret: "bench-secret", on: "all", queue_size: 100, drain_timeout: "10ms", retry: { attempts: 1 } },
  }];
  const kernel = await createKernel({
    config: testConfig({ plugins }),
    runOptions: { mode: "daemon", inspectTasks: [], resetStorage: false },
    logSink: createLogSink({ level: "ERROR", write: () => {} }),
    builtins: path === undefined ? [] : [{ id: "notifier-webhook", load: () => import("../plugins/notifier-webhook/mod.ts") }],
    httpListen: false,
  });
  await kernel.start();
  const events = kernel.resolve(daemonEventsToken);
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    const began = performance.now();
    events.publish({ type: "run.ended", run: run(i) });
    if (i >= WARM_UP) times.push(performance.now() - began);
    // Let the sender's sockets move between publications, as runs are apart in a daemon.
    if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await kernel.stop();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

const rows: string[][] = [];
for (const [label, path] of [["no notifier (bus only)", undefined], ["receiver answers 204", "/ok"], ["receiver never answers", "/hang"]] as const) {
  const before = answered;
  const { median, p99 } = await measure(path);
  const got = path === "/hang" ? `${held.length} held open` : path ? `${answered - before} answered` : "-";
  rows.push([label, `${(median * 1000).toFixed(1)} µs`, `${(p99 * 1000).toFixed(1)} µs`, got]);
}
for (const response of held) response.destroy();
receiver.close();

const header = ["case", "publish median", "publish p99", "receiver"];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
console.log([line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n"));
console.log(`\n${SAMPLES} run.ended publications per case (after ${WARM_UP} warm-up); queue_size 100 per URL.`);
