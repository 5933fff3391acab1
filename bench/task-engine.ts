/**
 * @module Benchmark of the task engine against the embedded Consul server over real HTTP.
 *
 * Run:  npx deno run -A bench/task-engine.ts            (all scenarios)
 *       npx deno run -A bench/task-engine.ts 10x1000    (one scenario: tasks x instances)
 *
 * For 10 and 100 tasks over 100, 1 000 and 10 000 service instances, and 1 000 tasks over 10 000
 * and 100 000 instances, buffer periods off, with the real consul-client, services condition, task
 * engine and the recording driver:
 *   - change → driver call latency, p50 and p99 (a new instance registration is sent → the task's
 *     run makes its first driver call, `render`; includes the registration round trip itself);
 *   - blocking queries open (the engine's shared watcher pool);
 *   - Consul HTTP requests per change (counted by a proxy between the client and the server);
 *   - resident memory: the whole bench process (engine, tasks, test driver) and the part
 *     added by starting the engine and its tasks (after a forced GC, so roughly the engine's own).
 * Task i watches service `svc-<i>`; instances are spread evenly over those services and over 100
 * nodes (see support/consul-process.ts: the server and proxy run in a process of their own, so
 * memory figures are the engine's). Each measured change is a real HTTP registration.
 * Without arguments every scenario runs in its own Deno process, so memory figures do not mix.
 */
import { startConsulProcess } from "./support/consul-process.ts";
import { engineConfig, servicesTask, startEngine } from "../harness/task-engine/engine-harness.ts";
import { clearRecordingLog, recorded, recordingLog } from "../harness/driver-recording/mod.ts";

const CHANGES = 40;

interface Row {
  tasks: number;
  instances: number;
  p50: number;
  p99: number;
  open: number;
  requestsPerChange: number;
  rssMb: number;
  engineMb: number;
}

async function register(url: string, service: string, id: string): Promise<void> {
  const response = await fetch(`${url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({ ID: id, Name: service, Address: "10.1.0.1", Port: 80, Tags: ["bench"] }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`register ${id}: ${response.status}`);
}

/** The first `op` entry of `task` at or after `from` in the recording log. */
function findRecorded(from: number, op: string, task: string): { start: number } | undefined {
  for (let i = from; i < recordingLog.length; i++) {
    const entry = recordingLog[i]!;
    if (entry.op === op && entry.task === task) return entry;
  }
  return undefined;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function waitUntil(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("bench: timed out");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function scenario(taskCount: number, instanceCount: number): Promise<Row> {
  const consul = await startConsulProcess(taskCount, instanceCount);
  clearRecordingLog();
  try {
    const tasks = Array.from({ length: taskCount }, (_, i) => servicesTask(`bench-${i}`, [`svc-${i}`]));
    const rssBefore = residentBytes();
    const harness = await startEngine({
      config: engineConfig(consul.proxyAddress, tasks, { log_level: "INFO" }),
      // The driver's call log keeps no inputs, so memory reflects the engine, not the test driver.
      recording: { keep_inputs: false },
    });
    try {
      await waitUntil(() => recorded("apply").length >= taskCount, 300_000);
      await harness.manager.idle();
      // Each watch re-parks its blocking query after its first answer (spaced ~100 ms apart);
      // wait until every one is parked, so that start-up requests are not counted as per-change.
      for (let last = -1, now = await consul.total(); last !== now; last = now, now = await consul.total()) {
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      const latencies: number[] = [];
      await consul.reset();
      let requestsBefore = await consul.total();
      let requests = 0;
      for (let change = 0; change < CHANGES; change++) {
        // Spread over the tasks (a prime step), so large task counts are not measured on the first few only.
        const task = (change * 7919) % taskCount;
        // The log is cleared per change: scanning it stays cheap while the bench polls.
        clearRecordingLog();
        const t0 = Date.now();
        await register(consul.url, `svc-${task}`, `extra-${change}`);
        await waitUntil(() => findRecorded(0, "render", `bench-${task}`) !== undefined);
        // The run's first driver call (render, then apply right after it).
        latencies.push(findRecorded(0, "render", `bench-${task}`)!.start - t0);
        await harness.manager.idle();
        const now = await consul.total();
        requests += now - requestsBefore;
        requestsBefore = now;
      }
      latencies.sort((a, b) => a - b);
      const rss = residentBytes();
      return {
        tasks: taskCount,
        instances: instanceCount,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        open: harness.watcher.stats().open,
        requestsPerChange: requests / CHANGES,
        rssMb: rss / 2 ** 20,
        engineMb: (rss - rssBefore) / 2 ** 20,
      };
    } finally {
      await harness.stop();
    }
  } finally {
    consul.stop();
  }
}

function residentBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const runtime = globalThis as { Deno?: { memoryUsage(): { rss: number } }; process?: { memoryUsage(): { rss: number } } };
  return (runtime.Deno ?? runtime.process)?.memoryUsage().rss ?? 0;
}

const deno = (globalThis as {
  Deno?: { args: string[]; execPath(): string; Command: new (cmd: string, o: { args: string[] }) => { output(): Promise<{ stdout: Uint8Array; stderr: Uint8Array; code: number }> } };
}).Deno;
const all: [number, number][] = [
  [10, 100], [10, 1000], [10, 10000], [100, 100], [100, 1000], [100, 10000], [1000, 10000], [1000, 100000],
];
const wanted = deno?.args ?? [];

const format = (row: Row) =>
  `| ${row.tasks} | ${row.instances} | ${row.p50} | ${row.p99} | ${row.open} | ${row.requestsPerChange.toFixed(2)} | ${row.rssMb.toFixed(0)} | ${row.engineMb.toFixed(0)} |`;

if (wanted.includes("--row")) {
  // Child mode: one scenario, one table row on stdout.
  const [tasks, instances] = wanted[0]!.split("x").map(Number) as [number, number];
  console.log(format(await scenario(tasks, instances)));
} else {
  console.log("| tasks | instances | change→driver call p50 (ms) | p99 (ms) | blocking queries open | Consul requests / change | RSS total (MiB) | RSS added by engine+tasks (MiB) |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const selected = wanted.length ? all.filter(([t, n]) => wanted.includes(`${t}x${n}`)) : all;
  for (const [tasks, instances] of selected) {
    const child = new deno!.Command(deno!.execPath(), {
      args: ["run", "-A", "-q", "--v8-flags=--expose-gc", import.meta.filename ?? new URL(import.meta.url).pathname, `${tasks}x${instances}`, "--row"],
    });
    const { stdout, stderr, code } = await child.output();
    const text = new TextDecoder().decode(stdout).split("\n").find((line) => line.startsWith("|"));
    console.log(text ?? `| ${tasks} | ${instances} | failed (exit ${code}): ${new TextDecoder().decode(stderr).slice(-300)} |`);
  }
}
