/**
 * @module Benchmark of the run history (issue 14): what keeping a record per run costs.
 *
 * Run:  npm run bench -- run-history      (or: npx deno run -A bench/run-history.ts)
 *
 *   - run-record write time (`putRun`, retention applied) for the memory store and for the Consul KV
 *     store over real HTTP against the embedded Consul server, p50 / p99 / mean, with the default
 *     retention (100 a task: past the 100th record each write also deletes the oldest key);
 *   - history size per 1,000 runs: the bytes the store holds for 1,000 records (JSON, as Consul
 *     keeps them), for a typical record (a few instances changed) and for a record of a large
 *     change (hundreds of instances: lists capped at 100, the rest counted in `omitted`);
 *   - the engine's per-task input digest (input-change.ts) for 10,000 instances: build time and diff time.
 */
import type { RunRecord, ServiceInstance, TaskInputs, TaskStore } from "../core/plugin-api/mod.ts";
import { MemoryTaskStore } from "../plugins/task-store-memory/mod.ts";
import { ConsulTaskStore } from "../plugins/ha-consul/src/consul-task-store.ts";
import { diffInputs, digestInputs } from "../plugins/task-engine/src/input-change.ts";
import { newRunId } from "../plugins/task-engine/src/run-recorder.ts";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import { testClient } from "../harness/consul-client/client-options.ts";
import { layoutOf } from "../harness/ha-consul/ha-harness.ts";

const WRITES = 1000;
const RETENTION = { maxRunsPerTask: 100, maxAgeMs: 168 * 3600_000 };
const KEEP_ALL = { maxRunsPerTask: 1000, maxAgeMs: 168 * 3600_000 };

function instance(n: number, address = "10.0.0.1"): ServiceInstance {
  return {
    id: `web-${n}`, name: "web", kind: "", address, port: 8080, meta: { version: "1.2.3" }, tags: ["prod", "v1"],
    namespace: "", status: "passing", node: `node-${n % 20}`, node_id: crypto.randomUUID(), node_address: `10.1.0.${n % 250}`,
    node_datacenter: "dc1", node_tagged_addresses: { lan: `10.1.0.${n % 250}` }, node_meta: { rack: `r${n % 4}` },
    cts_user_defined_meta: {},
  };
}

function inputsOf(instances: ServiceInstance[], kv: Record<string, string> = {}): TaskInputs {
  return { services: Object.fromEntries(instances.map((i) => [`${i.id}.${i.node}.dc1`, i])), consul_kv: kv };
}

/** A record like the engine writes, its change computed by the engine's own diff. */
function record(task: string, changedInstances: number): RunRecord {
  const base = Array.from({ length: Math.max(changedInstances, 10) + 5 }, (_, n) => instance(n));
  const after = base.map((i, n) => (n < changedInstances ? { ...i, address: "10.9.9.9" } : i));
  after.push(instance(9000));
  const change = diffInputs(digestInputs(inputsOf(base, { "app/a": "1" })), digestInputs(inputsOf(after, { "app/a": "2" })));
  const started = Date.now();
  return {
    id: newRunId(started), task, trigger: { kind: "dependency", detail: "/v1/health/service/web?passing=true&stale=" }, change,
    outcome: "applied", plan: { add: 1, change: 2, destroy: 0 }, started_at: new Date(started).toISOString(),
    ended_at: new Date(started + 2345).toISOString(), duration_ms: 2345, instance_id: "cts-bench-1",
    event_id: crypto.randomUUID(),
  };
}

function stats(ms: number[]): { p50: number; p99: number; mean: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

async function writeTimes(store: TaskStore, task: string, changed: number): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < WRITES; n++) {
    const run = record(task, changed);
    const t0 = performance.now();
    await store.putRun!(run, RETENTION);
    times.push(performance.now() - t0);
  }
  return times;
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

const consul = await startConsulDevServer();
const { client } = await testClient(consul.address);
try {
  console.log(`| store | writes | p50 | p99 | mean |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  const memory = stats(await writeTimes(new MemoryTaskStore(), "web", 3));
  console.log(`| memory | ${WRITES} | ${fmt(memory.p50)} | ${fmt(memory.p99)} | ${fmt(memory.mean)} |`);
  const kv = stats(await writeTimes(new ConsulTaskStore(client, layoutOf("bench-writes")), "web", 3));
  console.log(`| consul KV (embedded server, HTTP) | ${WRITES} | ${fmt(kv.p50)} | ${fmt(kv.p99)} | ${fmt(kv.mean)} |`);

  console.log(`\n| record | bytes per record | history size per 1,000 runs (Consul KV values) |`);
  console.log(`| --- | ---: | ---: |`);
  for (const [label, changed] of [["typical: 3 instances changed, 1 added, 1 KV key", 3], ["large: 500 instances changed (capped)", 500]] as const) {
    const store = new ConsulTaskStore(client, layoutOf(`bench-size-${changed}`));
    for (let n = 0; n < 1000; n++) await store.putRun(record("web", changed), KEEP_ALL);
    const pairs = await client.kvList(layoutOf(`bench-size-${changed}`).taskRunsPrefix("web"));
    const bytes = pairs.reduce((sum, pair) => sum + new TextEncoder().encode(pair.value).length, 0);
    console.log(`| ${label} | ${Math.round(bytes / pairs.length)} | ${(bytes / 1024).toFixed(0)} KiB (${pairs.length} records) |`);
  }

  const many = inputsOf(Array.from({ length: 10_000 }, (_, n) => instance(n)));
  const changed = inputsOf(Object.values(many.services).map((i, n) => (n % 100 === 0 ? { ...i, port: 9090 } : i)));
  const build: number[] = [];
  const diff: number[] = [];
  let listed = 0;
  // Five rounds, the first one cold (JIT warm-up); the table shows the median.
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    const before = digestInputs(many);
    const t1 = performance.now();
    const after = digestInputs(changed);
    const t2 = performance.now();
    listed = diffInputs(before, after).services!.changed.length;
    diff.push(performance.now() - t2);
    build.push(t1 - t0);
  }
  console.log(`\n| input digest, 10,000 instances (median of 5) | time |`);
  console.log(`| --- | ---: |`);
  console.log(`| digest (build, per run) | ${fmt(stats(build).p50)} |`);
  console.log(`| diff against the previous digest (100 changed, ${listed} listed) | ${fmt(stats(diff).p50)} |`);
} finally {
  client.close();
  await consul.stop();
}
