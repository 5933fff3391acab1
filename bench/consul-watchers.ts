/**
 * @module Benchmark: N parked blocking queries on the embedded Consul-compatible server.
 *
 * Run:  npx deno run -A bench/consul-watchers.ts              (N = 100, 1000, 10000)
 *       npx deno run -A bench/consul-watchers.ts 100 1000     (chosen N)
 * (Deno because Node 20 cannot run .ts files. For Node figures compile it with tsc, e.g.
 * `npx tsc -p tsconfig.json --outDir /tmp/b` and run `node /tmp/b/bench/consul-watchers.js`:
 * the server child then runs on the same runtime as the parent.)
 * CONSUL_WATCHERS_CPU_PROF=<dir> makes the server child write a CPU profile (Node's or Deno's
 * --cpu-prof) into <dir> when it stops.
 *
 * The server (support/watcher-server.ts) runs in a child process (this file with `--server`), so
 * its CPU time and memory are its own. For each N and each scenario the client parks N blocking reads, one raw keep-alive socket each
 * (so the client's own cost per answer stays tiny), waits until the server reports N parked waiters,
 * measures the server's CPU time and RSS over an idle window, then makes one change and records when
 * each watcher's answer (its status line) arrives:
 *   - kv:      N × GET /v1/kv/bench/key?index=I           change: PUT /v1/kv/bench/key
 *   - catalog: N × GET /v1/health/service/web?index=I     change: PUT /v1/agent/service/register (web)
 *   - floor:   N bare sockets to a plain `node:net` listener in the server child, which writes a
 *              kv-sized answer to each on a "fire" message: no HTTP, no Consul. It is what N loopback
 *              writes cost this machine at that moment; kv and catalog are good when close to it.
 *   - http:    N × GET /park on a bare `node:http` server in the server child, answered on GET /fire
 *              with the kv answer's headers and body: what the runtime's own HTTP server costs, with
 *              no routing and no Consul.
 * Latency runs from just before the change request is written (one TCP write) to each answer's
 * arrival; "wake CPU" is the server's CPU time from the change until every watcher was answered.
 * Client and server share the machine, so wall-clock latency also includes the client's work.
 */
import process from "node:process";
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { runServer, type ServerStats } from "./support/watcher-server.ts";

const IDLE_WINDOW_MS = 2000;

interface Urls {
  readonly consul: string;
  readonly stats: string;
  readonly floor: string;
  readonly http: string;
}

async function startServerProcess(): Promise<Urls & { stop(): void }> {
  const self = new URL(import.meta.url).pathname;
  // CONSUL_WATCHERS_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
  const profileDir = process.env.CONSUL_WATCHERS_CPU_PROF;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  // Same runtime as the parent: Deno runs this .ts file, Node runs its tsc output.
  const args = "Deno" in globalThis
    ? ["run", "-A", "-q", ...profile, self, "--server"]
    : [...profile, self, "--server"];
  const child = spawn(process.execPath, args, {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  const urls = JSON.parse(line) as Urls;
  return { ...urls, stop: () => child.stdin!.end() };
}

async function stats(url: string): Promise<ServerStats> {
  return await (await fetch(url)).json() as ServerStats;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Sends one PUT as a single TCP write on a fresh connection and resolves with the response status.
 * (fetch may write headers and body separately; Nagle plus delayed ACKs then add ~40 ms that
 * belong to the client, not to the server being measured.)
 */
function put(base: string, path: string, body: string): Promise<void> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.setNoDelay(true);
      const bytes = new TextEncoder().encode(body);
      socket.write(`PUT ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${bytes.length}\r\n` +
        `Connection: close\r\n\r\n${body}`);
    });
    let reply = "";
    socket.on("data", (chunk) => (reply += chunk.toString()));
    socket.on("end", () => (reply.startsWith("HTTP/1.1 200") ? resolve() : reject(new Error(reply))));
    socket.on("error", reject);
  });
}

interface Scenario {
  readonly name: string;
  /** Which server the watchers talk to. */
  readonly server: "consul" | "floor" | "http";
  /** Undefined for the floor: its watchers are bare sockets. */
  readonly watchPath: string | undefined;
  prepare(base: string): Promise<void>;
  change(base: string, round: number): Promise<void>;
}

const scenarios: readonly Scenario[] = [
  {
    name: "kv",
    server: "consul",
    watchPath: "/v1/kv/bench/key",
    prepare: (base) => put(base, "/v1/kv/bench/key", "0"),
    change: (base, round) => put(base, "/v1/kv/bench/key", String(round + 1)),
  },
  {
    name: "catalog",
    server: "consul",
    watchPath: "/v1/health/service/web",
    prepare: (base) => put(base, "/v1/agent/service/register", JSON.stringify({ Name: "web", ID: "web-0", Port: 80 })),
    change: (base, round) =>
      put(base, "/v1/agent/service/register", JSON.stringify({ Name: "web", ID: `web-${round + 1}`, Port: 80 })),
  },
  {
    name: "floor",
    server: "floor",
    watchPath: undefined,
    prepare: () => Promise.resolve(),
    change: (base) =>
      new Promise((resolve, reject) => {
        const url = new URL(base);
        const socket = connect(Number(url.port), url.hostname, () => socket.end("fire"));
        socket.on("close", () => resolve());
        socket.on("error", reject);
      }),
  },
  {
    name: "http",
    server: "http",
    watchPath: "/park",
    prepare: () => Promise.resolve(),
    change: async (base) => {
      await (await fetch(`${base}/fire`)).text();
    },
  },
];

interface Row {
  scenario: string;
  n: number;
  p50: number;
  p99: number;
  all: number;
  idleCpuMs: number;
  wakeCpuMs: number;
  rssMiB: number;
  errors: number;
}

async function measure(urls: Urls, scenario: Scenario, n: number, round: number): Promise<Row> {
  const floor = scenario.watchPath === undefined;
  const base = urls[scenario.server];
  let index: string | null = null;
  if (scenario.server === "consul") {
    const first = await fetch(`${base}${scenario.watchPath}`);
    await first.text();
    index = first.headers.get("X-Consul-Index");
  }
  let t0 = 0;
  const arrivals: number[] = [];
  let errors = 0;
  const url = new URL(base);
  const request = `GET ${scenario.watchPath}?index=${index}&wait=5m HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`;
  // Sockets close only after every answer arrived, so closing costs no one's latency.
  const sockets: Socket[] = [];
  const watchers = Array.from({ length: n }, () =>
    new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(floor ? "park" : request));
      sockets.push(socket);
      socket.once("data", (chunk) => {
        arrivals.push(performance.now() - t0);
        if (!chunk.toString().startsWith("HTTP/1.1 200")) errors++;
        resolve();
      });
      socket.on("error", () => {
        errors++;
        resolve();
      });
    }));
  const parked = async () => {
    const now = await stats(urls.stats);
    return scenario.server === "consul" ? now.parked : now[scenario.server];
  };
  while (await parked() < n) await new Promise((resolve) => setTimeout(resolve, 50));
  const before = await stats(urls.stats);
  await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
  const after = await stats(urls.stats);
  t0 = performance.now();
  await scenario.change(base, round);
  await Promise.all(watchers);
  const woken = await stats(urls.stats);
  for (const socket of sockets) socket.destroy();
  const sorted = arrivals.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    n,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    all: sorted[sorted.length - 1] ?? NaN,
    // The stats request itself costs a little CPU; both samples include one.
    idleCpuMs: (after.cpuUserMs + after.cpuSystemMs) - (before.cpuUserMs + before.cpuSystemMs),
    wakeCpuMs: (woken.cpuUserMs + woken.cpuSystemMs) - (after.cpuUserMs + after.cpuSystemMs),
    rssMiB: after.rssMiB,
    errors,
  };
}

function printTable(rows: readonly Row[]): void {
  const header = ["scenario", "watchers", "p50 ms", "p99 ms", "all ms", `idle CPU ms / ${IDLE_WINDOW_MS / 1000}s`, "wake CPU ms",
    "server RSS MiB", "errors"];
  const lines = rows.map((r) => [
    r.scenario, String(r.n), r.p50.toFixed(1), r.p99.toFixed(1), r.all.toFixed(1), r.idleCpuMs.toFixed(1),
    r.wakeCpuMs.toFixed(1), r.rssMiB.toFixed(0), String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(fmt(line));
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const ns = sizes.length > 0 ? sizes : [100, 1000, 10000];
  const server = await startServerProcess();
  const rows: Row[] = [];
  try {
    for (const scenario of scenarios) await scenario.prepare(server.consul);
    let round = 0;
    for (const n of ns) {
      // Unrecorded warm-up: opens the N connections and warms both sides' code paths, so the first
      // recorded scenario is not charged for them.
      await measure(server, scenarios[0]!, n, round++);
      for (const scenario of scenarios) {
        rows.push(await measure(server, scenario, n, round++));
        process.stderr.write(`${scenario.name} ${n}: p99 ${rows.at(-1)!.p99.toFixed(1)} ms\n`);
      }
    }
    const idle = await stats(server.stats);
    console.log(`server after the runs: ${idle.parked} parked, RSS ${idle.rssMiB.toFixed(0)} MiB\n`);
    printTable(rows);
  } finally {
    server.stop();
  }
}

if (process.argv.includes("--server")) await runServer();
else await main();
