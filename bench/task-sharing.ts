/**
 * @module Benchmark of the shared cluster mode's ownership layer (plugins/ha-consul SharedCluster):
 * how many tasks move when an instance joins or leaves, against the ideal (tasks / members), and how
 * long until every task is owned again. In-process members with real Consul clients on the embedded
 * Consul over real HTTP; the engine is left out (each member's "run ends" at once), so the figures
 * are the coordination's own.
 *
 * Run:  npx deno run -A bench/task-sharing.ts            (30 and 1000 tasks, 3 → 4 → 3 members)
 *       npx deno run -A bench/task-sharing.ts 300        (one task count)
 *
 * Events: a fourth member joins; a member stops gracefully (releases its locks); a member crashes
 * (its session destroyed, as Consul does when its health check fails).
 *
 * Then the members' own Consul traffic per task run (`npx deno run -A bench/task-sharing.ts traffic`
 * for that table only): 3 members behind a recording proxy, 30 tasks, N run records already stored;
 * each run writes what the engine writes (the task's state twice, an event, a run record), 150 ms
 * apart; requests and response bytes the members read, per run.
 */
import { kvLayoutOf } from "../plugins/ha-consul/src/kv-layout.ts";
import { SharedCluster } from "../plugins/ha-consul/src/shared-cluster.ts";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import { createCaptureLogger } from "../harness/consul-client/capture-logger.ts";
import { testClient } from "../harness/consul-client/client-options.ts";
import { haConfig } from "../harness/ha-consul/ha-harness.ts";
import { startRecordingProxy } from "../harness/ha-consul/recording-proxy.ts";
import { settledOwners, taskOwners } from "../harness/ha-consul/shared-cluster-support.ts";

interface Row {
  tasks: number;
  event: string;
  moved: number;
  ideal: number;
  ms: number;
}

const consul = await startConsulDevServer({ sessionTtlMinMs: 100 });

async function member(cluster: string, id: string, address = consul.address) {
  const { client } = await testClient(address);
  const ha = haConfig(cluster, { ttlMs: 10_000 });
  const shared = new SharedCluster({
    consul: client, layout: kvLayoutOf(ha), clusterName: cluster, instanceId: id, sessionTtlMs: 10_000, logger: createCaptureLogger("ha"),
  });
  shared.start();
  return { id, shared, client };
}

async function settle(cluster: string, tasks: number, members: readonly string[]): Promise<Map<string, string>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const owners = await taskOwners(consul.url, cluster);
    // Settled: every task held by the member rendezvous hashing ranks first among `members`.
    if (settledOwners(owners, names(tasks), members)) return owners;
    if (Date.now() > deadline) throw new Error(`Cannot settle ${cluster}: ${owners.size}/${tasks} owned`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (tasks: number) => Array.from({ length: tasks }, (_, i) => `t${i}`);
const moved = (before: Map<string, string>, after: Map<string, string>) => [...after].filter(([task, id]) => before.get(task) !== id).length;

async function measure(tasks: number): Promise<Row[]> {
  const cluster = `share-${tasks}`;
  const layout = kvLayoutOf(haConfig(cluster));
  const { client: seeder } = await testClient(consul.address);
  for (let i = 0; i < tasks; i++) {
    const name = `t${i}`;
    await seeder.kvPut(layout.taskKey(name), JSON.stringify({ config: { name } }), { cas: 0 });
  }
  const members = [await member(cluster, "a"), await member(cluster, "b"), await member(cluster, "c")];
  const rows: Row[] = [];
  let owners = await settle(cluster, tasks, ["a", "b", "c"]);

  let t0 = Date.now();
  members.push(await member(cluster, "d"));
  let next = await settle(cluster, tasks, ["a", "b", "c", "d"]);
  rows.push({ tasks, event: "3 → 4: d joins", moved: moved(owners, next), ideal: tasks / 4, ms: Date.now() - t0 });
  owners = next;

  t0 = Date.now();
  const leaving = members.splice(0, 1)[0]!;
  await leaving.shared.stop();
  leaving.client.close();
  next = await settle(cluster, tasks, ["b", "c", "d"]);
  rows.push({ tasks, event: "4 → 3: a stops (graceful)", moved: moved(owners, next), ideal: tasks / 4, ms: Date.now() - t0 });
  owners = next;

  members.push(await member(cluster, "a"));
  owners = await settle(cluster, tasks, ["a", "b", "c", "d"]);
  const crashed = members.find((entry) => entry.id === "b")!;
  const sessions = (await (await fetch(`${consul.url}/v1/session/list`)).json()) as { ID: string; Name: string }[];
  t0 = Date.now();
  // A crash as Consul sees it: the member's bound check fails, which destroys its sessions.
  for (const session of sessions.filter((entry) => entry.Name.endsWith(` ${cluster} b`))) {
    await fetch(`${consul.url}/v1/session/destroy/${session.ID}`, { method: "PUT" });
  }
  // b's process is gone: it must not rejoin.
  const stopping = crashed.shared.stop();
  next = await settle(cluster, tasks, ["a", "c", "d"]);
  rows.push({ tasks, event: "4 → 3: b crashes (session invalidated)", moved: moved(owners, next), ideal: tasks / 4, ms: Date.now() - t0 });
  await stopping;
  members.splice(members.indexOf(crashed), 1);
  crashed.client.close();

  for (const entry of members) {
    await entry.shared.stop();
    entry.client.close();
  }
  seeder.close();
  return rows;
}

interface TrafficRow {
  stored: number;
  runs: number;
  requests: number;
  bytes: number;
}

/** What one run of `task` writes to the store (run-state.ts, task-runtime.ts, consul-run-history.ts). */
async function writeRun(kv: (key: string, value: string) => Promise<unknown>, root: string, task: string, id: string): Promise<void> {
  const config = { name: task, module: "./mod", condition: { services: { names: ["web"] } } };
  await kv(`${root}/tasks/${task}`, JSON.stringify({ config, lastRun: { fingerprint: id, state: "started" } }));
  await kv(`${root}/events/${task}`, JSON.stringify([{ id, task_name: task, success: true, start_time: new Date().toISOString() }]));
  await kv(`${root}/runs/${task}/${id}`, JSON.stringify(runRecord(task, id)));
  await kv(`${root}/tasks/${task}`, JSON.stringify({ config, lastRun: { fingerprint: id, state: "succeeded" } }));
}

function runRecord(task: string, id: string) {
  return {
    id, task, trigger: "services", status: "succeeded", started_at: new Date().toISOString(), duration_ms: 812,
    changes: { services: { added: ["web-1"], removed: [], changed: ["web-0"] } }, resources: { add: 1, change: 2, destroy: 0 },
    output: "terraform_data.instance[\"web-0\"]: Modifying...\nApply complete! Resources: 1 added, 2 changed, 0 destroyed.",
  };
}

async function measureTraffic(stored: number, runs: number): Promise<TrafficRow> {
  const cluster = `traffic-${stored}`;
  const layout = kvLayoutOf(haConfig(cluster));
  const tasks = 30;
  const kv = (key: string, value: string) => fetch(`${consul.url}/v1/kv/${key}`, { method: "PUT", body: value }).then((r) => r.text());
  for (let i = 0; i < tasks; i++) await kv(layout.taskKey(`t${i}`), JSON.stringify({ config: { name: `t${i}` } }));
  for (let i = 0; i < stored; i++) await kv(layout.runKey(`t${i % tasks}`, `r${String(i).padStart(6, "0")}`), JSON.stringify(runRecord(`t${i % tasks}`, `r${i}`)));
  const proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
  const members = [await member(cluster, "a", proxy.address), await member(cluster, "b", proxy.address), await member(cluster, "c", proxy.address)];
  await settle(cluster, tasks, ["a", "b", "c"]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const from = proxy.exchanges.length;
  for (let run = 0; run < runs; run++) {
    await writeRun(kv, layout.root, `t${run % tasks}`, `n${String(run).padStart(6, "0")}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  // Only the members' reads (their session renewals are not part of a run's cost).
  const reads = proxy.exchanges.slice(from).filter((exchange) => exchange.path.startsWith("/v1/kv/"));
  for (const entry of members) {
    await entry.shared.stop();
    entry.client.close();
  }
  await proxy.close();
  return { stored, runs, requests: reads.length / runs, bytes: reads.reduce((sum, exchange) => sum + exchange.bytes, 0) / runs };
}

function printTable(header: string[], table: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...table.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const cells of table) console.log(line(cells));
}

const trafficOnly = process.argv.includes("traffic");
const args = process.argv.slice(2).filter((value) => /^\d+$/.test(value));
const counts = trafficOnly ? [] : args.length > 0 ? args.map(Number) : [30, 1000];
const rows: Row[] = [];
for (const tasks of counts) rows.push(...(await measure(tasks)));
const traffic: TrafficRow[] = [];
for (const stored of [0, 3000]) traffic.push(await measureTraffic(stored, 40));
await consul.stop();

if (rows.length > 0) {
  printTable(["tasks", "event", "tasks moved", "ideal (tasks/4)", "until all owned ms"],
    rows.map((row) => [String(row.tasks), row.event, String(row.moved), String(Math.round(row.ideal)), String(row.ms)]));
  console.log("");
}
printTable(["stored run records", "runs", "member KV reads per run (3 members)", "bytes read per run"],
  traffic.map((row) => [String(row.stored), String(row.runs), row.requests.toFixed(1), String(Math.round(row.bytes))]));
