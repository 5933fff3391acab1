/**
 * @module Benchmark of HA failover with real processes: three `node dist/main.js start` instances in one
 * cluster on the embedded Consul server, one recording-driver task, nothing changing in Consul.
 *
 * Run:  npm run build && npx deno run -A bench/ha-failover.ts                (session_ttl 10s and 15s, 10 kills each)
 *       npx deno run -A bench/ha-failover.ts --ttl=1s,2s --kills=5          (quick look; the server allows short TTLs)
 *       npx deno run -A bench/ha-failover.ts --ttl=10s --modes=crash --binding=check,ttl --interval=10s,1s
 *         (crash failover with the session bound to the registration check, at each check interval,
 *          against TTL-only = service registration off)
 *
 * For each TTL and each way of stopping the leader (SIGTERM = graceful, SIGKILL = crash), ten times:
 * stop the leader, measure the time until another instance logs "acquired leadership lock", wait for its
 * leader pass ("all tasks ran once"), count the applies it made (nothing changed, so the target is 0),
 * then start the stopped instance again and wait until all three are healthy. Slow by nature: a crash
 * failover takes 1–2 × TTL, so the default run takes roughly 10 × 2 × (10 s + 15 s) plus restarts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, failover, type HaInstance, leaderLockChecks, readRecords, recordingDriverHcl, registerService, startCluster,
  stopCluster, until, waitForLeader,
} from "../harness/ha-consul/ha-cluster.ts";

interface Row {
  ttl: string;
  binding: string;
  mode: "graceful" | "crash";
  kills: number;
  median: number;
  max: number;
  min: number;
  applies: number;
}

function arg(name: string, fallback: string): string {
  const found = process.argv.find((value) => value.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

function ttlMs(ttl: string): number {
  const match = /^(\d+)(ms|s)$/.exec(ttl);
  if (!match) throw new Error(`Cannot read --ttl ${ttl}: use e.g. 10s or 500ms`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

const passes = (instance: HaInstance) => instance.output.split("all tasks ran once; watching for changes").length - 1;

async function allHealthy(instances: readonly HaInstance[]): Promise<void> {
  for (const instance of instances) if (!instance.running) instance.start();
  await until("all instances healthy", async () =>
    ((await Promise.all(instances.map((i) => i.api("GET", "/v1/health")))).every((a) => a?.status === 200) ? true : undefined), 60_000);
}

async function measure(ttl: string, kills: number, binding: "check" | "ttl", interval: string): Promise<Row[]> {
  const consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  const dir = mkdtempSync(join(tmpdir(), "cts-ha-bench-"));
  const records = join(dir, "records.jsonl");
  const cluster = `bench-${ttl}-${binding}-${interval}`.replace(/[^a-z0-9-]/gi, "");
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  const instances = await startCluster({
    consulAddress: consul.address,
    cluster,
    dir,
    sessionTtl: ttl,
    ...(binding === "ttl" ? { registration: false } : { checkInterval: interval }),
    driverHcl: recordingDriverHcl(await bundleRecordingDriver(dir), records, 100),
    tasksHcl: `task {\n  name   = "bench-web"\n  module = "./mod"\n  condition "services" { names = ["web"] }\n}\n`,
  }, 3);
  const limit = 4 * ttlMs(ttl) + 30_000;
  const rows: Row[] = [];
  try {
    let leader = await waitForLeader(instances, limit);
    await until("the first leader pass", () => (passes(leader) > 0 ? true : undefined), limit);
    for (const mode of modes) {
      const times: number[] = [];
      let applies = 0;
      for (let kill = 0; kill < kills; kill++) {
        await allHealthy(instances);
        if (binding === "check") {
          const current = leader;
          await until("the leader's lock bound to its check", async () =>
            ((await leaderLockChecks(consul.url, cluster)).includes(`${current.id}-health`) ? true : undefined), limit);
        }
        const before = new Map(instances.map((instance) => [instance, passes(instance)]));
        const t0 = Date.now();
        const { next, ms } = await failover(instances, leader, mode === "crash" ? "SIGKILL" : "SIGTERM", limit);
        times.push(ms);
        await until(`${next.id}'s leader pass`, () => (passes(next) > before.get(next)! ? true : undefined), limit);
        applies += readRecords(records).filter((entry) => entry.op === "apply" && entry.instance === next.id && entry.start >= t0).length;
        leader = next;
        console.error(`  ttl=${ttl} ${binding} ${interval} ${mode} #${kill + 1}: ${ms} ms -> ${next.id}`);
      }
      const sorted = [...times].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      const median = sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
      rows.push({ ttl, binding: binding === "ttl" ? "TTL only" : `check, interval ${interval}`, mode, kills, median, max: sorted.at(-1)!, min: sorted[0]!, applies });
    }
  } finally {
    await stopCluster(instances);
    await consul.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const ttls = arg("ttl", "10s,15s").split(",");
const kills = Number(arg("kills", "10"));
const modes = arg("modes", "graceful,crash").split(",") as ("graceful" | "crash")[];
const bindings = arg("binding", "check").split(",") as ("check" | "ttl")[];
const intervals = arg("interval", "10s").split(",");
const rows: Row[] = [];
for (const ttl of ttls) {
  for (const binding of bindings) {
    for (const interval of binding === "ttl" ? ["-"] : intervals) rows.push(...(await measure(ttl, kills, binding, interval)));
  }
}

const header = ["session_ttl", "session bound to", "leader stop", "kills", "median ms", "min ms", "max ms", "bound", "applies by new leader"];
const table = rows.map((row) => [
  row.ttl, row.binding, row.mode === "crash" ? "SIGKILL (crash)" : "SIGTERM (graceful)", String(row.kills), String(row.median), String(row.min),
  String(row.max), row.mode === "graceful" ? "~1000" : row.binding === "TTL only" ? `2×TTL = ${2 * ttlMs(row.ttl)}` : "interval + timeout", String(row.applies),
]);
const widths = header.map((title, i) => Math.max(title.length, ...table.map((cells) => cells[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const cells of table) console.log(line(cells));
