/**
 * @module Benchmark: is the engine's memory flat over many runs? (CTS has had a reported leak.)
 *
 * Run:  npx deno run -A bench/engine-runs-memory.ts [runs]   (default 100000; re-runs itself with
 *       --expose-gc, so memory is read after a forced GC)
 *
 * 10 tasks over 1 000 instances of the embedded Consul server (100 per task), the recording driver
 * without kept inputs; runs are forced through the task manager (`runNow`, as the API's run=now
 * does), all 10 tasks at a time, and every 10th round also changes one instance (one per service,
 * in turn, re-registered with a new meta value), so the condition → inputs → fingerprint path
 * keeps working while the data stays the same size (a growing instance count would grow memory
 * by itself). The Consul server runs in a process of its own (support/consul-process.ts), so the
 * figures are the engine's. After a forced GC the first table shows RSS, its anonymous part, the
 * JS heap, external memory and, on Deno with glibc, what malloc has in use and holds, after 1k,
 * 10k and 100k runs (and 300k, or any count given), next to the figures after the first round;
 * the second table shows the same process after a last-resort GC.
 *
 * What the figures showed (issue 16, Deno 2.9 on glibc): the JS heap and malloc's bytes in use
 * stay flat (no object or native leak in the engine). RSS still rises after a forced GC, for two
 * reasons that are not leaks: V8 keeps the heap pages its young generation grew to under the run
 * rate (heap total about 40 → 85 MiB; a last-resort GC gives them back, `--max-semi-space-size`
 * caps them), and glibc keeps freed memory in its arenas (held ≫ in use; MALLOC_ARENA_MAX does not
 * change it). With the server in this process, its HTTP handling of each blocking-query answer
 * grew malloc's in-use bytes too (about 6 KB an answer), which earlier figures counted as the
 * engine's.
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { startConsulProcess } from "./support/consul-process.ts";
import { engineConfig, servicesTask, startEngine } from "../harness/task-engine/engine-harness.ts";
import { clearRecordingLog } from "../harness/driver-recording/mod.ts";

const TASKS = 10;
const INSTANCES = 1000;

interface Sample {
  readonly runs: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly heapTotalMiB: number;
  readonly externalMiB: number;
  readonly arrayBuffersMiB: number;
  /** Anonymous (malloc + V8) resident memory from /proc/self/smaps_rollup, when Linux has it. */
  readonly anonMiB: number | undefined;
  /** glibc malloc: bytes in use and bytes the arenas hold (Deno on glibc only, through FFI). */
  readonly malloc: { readonly inUseMiB: number; readonly heldMiB: number } | undefined;
  /**
   * The same after a last-resort GC (what V8 does under memory pressure): V8 then gives back the
   * heap pages it keeps for speed (grown young generation, pooled pages), so what is left is what
   * the process really holds.
   */
  readonly pressed: { readonly rssMiB: number; readonly anonMiB: number | undefined; readonly heapTotalMiB: number; readonly mallocHeldMiB: number | undefined };
}

function sample(runs: number): Sample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("bench: run with --v8-flags=--expose-gc, so memory is read after a full GC");
  gc();
  gc();
  const usage = process.memoryUsage();
  const mib = (bytes: number) => bytes / 2 ** 20;
  const measured = {
    runs, rssMiB: mib(usage.rss), heapMiB: mib(usage.heapUsed), heapTotalMiB: mib(usage.heapTotal),
    externalMiB: mib(usage.external), arrayBuffersMiB: mib(usage.arrayBuffers), anonMiB: anonymousMiB(),
    malloc: mallocMiB(),
  };
  // V8's gc() options (Node 20 and Deno): a synchronous major GC of the "last resort" flavour.
  (gc as (options: object) => void)({ type: "major", execution: "sync", flavor: "last-resort" });
  const after = process.memoryUsage();
  const pressed = { rssMiB: mib(after.rss), anonMiB: anonymousMiB(), heapTotalMiB: mib(after.heapTotal), mallocHeldMiB: mallocMiB()?.heldMiB };
  return { ...measured, pressed };
}

/** glibc's mallinfo2 (all arenas): what is in use, and what the arenas took from the system. */
function mallocMiB(): Sample["malloc"] {
  const deno = (globalThis as { Deno?: { dlopen(path: string, symbols: object): { symbols: { mallinfo2(): Uint8Array }; close(): void } } }).Deno;
  if (!deno || process.platform !== "linux") return undefined;
  try {
    const field = "usize";
    const lib = deno.dlopen("libc.so.6", { mallinfo2: { parameters: [], result: { struct: Array(10).fill(field) } } });
    const info = new BigUint64Array(lib.symbols.mallinfo2().buffer);
    lib.close();
    // Fields: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost.
    return { inUseMiB: Number(info[7]) / 2 ** 20, heldMiB: Number(info[0] + info[4]) / 2 ** 20 };
  } catch {
    return undefined; // not glibc (musl, macOS), or no --allow-ffi
  }
}

function anonymousMiB(): number | undefined {
  try {
    const rollup = readFileSync("/proc/self/smaps_rollup", "utf8");
    const kib = /^Anonymous:\s+(\d+) kB/m.exec(rollup)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

async function register(url: string, service: string, id: string, meta: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({ ID: id, Name: service, Address: "10.1.0.1", Port: 80, Tags: ["bench"], Meta: meta }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`register ${id}: ${response.status}`);
}

if (!(globalThis as { gc?: unknown }).gc) {
  // Run again with a GC the bench can force (as `npm run bench` starts it without V8 flags).
  const { spawnSync } = await import("node:child_process");
  const self = new URL(import.meta.url).pathname;
  const args = "Deno" in globalThis ? ["run", "-A", "-q", "--v8-flags=--expose-gc", self] : ["--expose-gc", self];
  const result = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const total = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 100_000);
const checkpoints = [...new Set([1_000, 10_000, 100_000, 300_000, total])].filter((n) => n <= total);
const consul = await startConsulProcess(TASKS, INSTANCES);
const samples: Sample[] = [];
try {
  // One instance per service on the agent's node, the one the loop changes (the bulk ones stay).
  for (let i = 0; i < TASKS; i++) await register(consul.url, `svc-${i}`, `churn-${i}`, { round: "0" });
  const tasks = Array.from({ length: TASKS }, (_, i) => servicesTask(`mem-${i}`, [`svc-${i}`]));
  const harness = await startEngine({
    // WARN: the harness keeps every log line it is given; INFO would grow by two lines a run.
    config: engineConfig(consul.proxyAddress, tasks, { log_level: "WARN" }),
    recording: { keep_inputs: false },
  });
  try {
    await harness.manager.idle();
    let runs = 0;
    let round = 0;
    const started = Date.now();
    while (runs < total) {
      if (round % 10 === 0) {
        const changed = (round / 10) % TASKS;
        await register(consul.url, `svc-${changed}`, `churn-${changed}`, { round: String(round) });
      }
      await Promise.all(tasks.map((task) => harness.manager.runNow(task.name, { kind: "api" })));
      runs += TASKS;
      round++;
      if (round % 100 === 0) clearRecordingLog();
      if (runs === TASKS || checkpoints.includes(runs)) {
        samples.push(sample(runs));
        // Progress on stderr, so a long run shows where memory goes before the table.
        console.error(`${runs} runs: ${JSON.stringify(samples.at(-1), (_, v) => typeof v === "number" ? Math.round(v * 10) / 10 : v)}`);
      }
    }
    await harness.manager.idle();
    console.log(`${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s (${TASKS} tasks, ${INSTANCES} instances)\n`);
  } finally {
    await harness.stop();
  }
} finally {
  consul.stop();
}
console.log(`runtime: ${"Deno" in globalThis ? "Deno" : "Node"} ${process.version}\n`);
const fixed = (value: number | undefined, digits: number) => (value === undefined ? "-" : value.toFixed(digits));
console.log("After a forced GC:\n");
console.log("| runs | RSS (MiB) | anonymous (MiB) | heap used (MiB) | heap total (MiB) | external (MiB) | array buffers (MiB) | malloc in use / held (MiB) |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const s of samples) {
  const malloc = s.malloc ? `${fixed(s.malloc.inUseMiB, 1)} / ${fixed(s.malloc.heldMiB, 1)}` : "-";
  console.log(`| ${s.runs.toLocaleString("en-US")} | ${fixed(s.rssMiB, 0)} | ${fixed(s.anonMiB, 0)} | ${fixed(s.heapMiB, 1)} | ${fixed(s.heapTotalMiB, 1)} | ${fixed(s.externalMiB, 1)} | ${fixed(s.arrayBuffersMiB, 1)} | ${malloc} |`);
}
console.log("\nThen after a last-resort GC (as under memory pressure):\n");
console.log("| runs | RSS (MiB) | anonymous (MiB) | heap total (MiB) | malloc held (MiB) |");
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const { runs, pressed } of samples) {
  console.log(`| ${runs.toLocaleString("en-US")} | ${fixed(pressed.rssMiB, 0)} | ${fixed(pressed.anonMiB, 0)} | ${fixed(pressed.heapTotalMiB, 1)} | ${fixed(pressed.mallocHeldMiB, 1)} |`);
}
