/**
 * @module Benchmark: what masking secrets costs where the daemon does it on every item: a log line
 * (text and JSON), a daemon event (a run record), and an API answer through the kernel's router
 * (guard, masking, CORS), with no secret known and with 20 (each adds four spellings to look for).
 *
 * Run:  npm run bench -- secret-masking
 */
import { KernelHttpRouter } from "../core/http/http-router.ts";
import { DaemonEventBus } from "../core/kernel/daemon-event-bus.ts";
import { SecretList } from "../core/kernel/secret-list.ts";
import { createLogSink } from "../core/logging/log-sink.ts";
import type { RunRecord } from "../core/plugin-api/mod.ts";

const ITERATIONS = 20_000;

function secretsOf(count: number): SecretList {
  const secrets = new SecretList();
  for (let i = 0; i < count; i++) secrets.add(`s3cret-value-${i}-${crypto.randomUUID()}`, `bench ${i}`);
  return secrets;
}

/** Microseconds per call, after a warm-up of a tenth of the iterations. */
async function perCall(run: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < ITERATIONS / 10; i++) await run(i);
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await run(i);
  return ((performance.now() - started) * 1000) / ITERATIONS;
}

const record: RunRecord = {
  id: "0001732790000000-abcdef12", task: "web", trigger: { kind: "dependency", detail: "services" },
  change: { services: { added: ["web-3"], removed: [], changed: [{ id: "web-1", fields: ["tags"] }] } },
  outcome: "failed", started_at: new Date().toISOString(), ended_at: new Date().toISOString(), duration_ms: 4200,
  instance_id: "cts-01", error: `Cannot apply task "web": terraform apply exited with 1: Error: local-exec provisioner error ${"x".repeat(400)}`,
} as RunRecord;

const status = JSON.stringify({
  task_summary: { status: { successful: 40, errored: 1, critical: 0, unknown: 0 }, enabled: { true: 41, false: 0 } },
  tasks: Array.from({ length: 40 }, (_, i) => ({ task_name: `task-${i}`, status: "successful", enabled: true, providers: ["aws"] })),
});

const rows: string[][] = [["item", "secrets known", "µs per item"]];
for (const count of [0, 20]) {
  const secrets = secretsOf(count);
  for (const json of [false, true]) {
    const sink = createLogSink({ level: "INFO", json, write: () => {}, secrets });
    const logger = sink.logger("driver.terraform", { task_name: "web" });
    const us = await perCall((i) => logger.info("executing task", { trigger: "dependency", run: i, error: record.error }));
    rows.push([`log line (${json ? "JSON" : "text"})`, String(count), us.toFixed(2)]);
  }
  const bus = new DaemonEventBus(1000, secrets);
  rows.push(["daemon event (run.ended)", String(count), (await perCall(() => bus.publish({ type: "run.ended", run: record }))).toFixed(2)]);
  const router = new KernelHttpRouter(secrets);
  router.mount("/v1", () => new Response(status, { headers: { "content-type": "application/json" } }));
  router.guard.configure({ token: "bench-token", allowedOrigins: [], listenAddress: "127.0.0.1" });
  const request = () => new Request("http://127.0.0.1:8558/v1/status", { headers: { host: "127.0.0.1:8558", authorization: "Bearer bench-token" } });
  rows.push([`API answer (${status.length} B, token checked)`, String(count), (await perCall(async () => await (await router.fetch(request())).text())).toFixed(2)]);
}

const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const [index, row] of rows.entries()) {
  console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`);
  if (index === 0) console.log(`| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`);
}
