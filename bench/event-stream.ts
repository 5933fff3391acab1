/**
 * @module Benchmark: `GET /v1/events` with 100 connected clients: the server's RSS, and how long an
 * event takes from `publish()` to each client (p50/p99); then 100 clients that never read, under
 * a flood of 4 KiB events, to show that their cost stays bounded by their queues.
 *
 * Run:  npm run bench -- event-stream          (Deno, the runtime the benches use)
 *       npx deno run -A bench/event-stream.ts 100 300   (clients, events per latency run)
 *
 * The server runs in a child process (this file with `--server`): the kernel's event bus, the
 * http-api's stream hub and its route, served by the kernel's `serveHttp` — so its RSS is its
 * own. The child publishes on request; each event carries the wall-clock time of its publish
 * (`performance.timeOrigin + performance.now()`, comparable across the two processes), and each
 * client (a raw socket) records when the frame arrives. Client and server share the machine.
 */
import process from "node:process";
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { Hono } from "hono";
import { DaemonEventBus } from "../core/kernel/daemon-event-bus.ts";
import type { Logger } from "../core/plugin-api/mod.ts";
import { serveHttp } from "../core/runtime/serve-http.ts";
import { EventStreamHub } from "../plugins/http-api/src/event-stream-hub.ts";
import { mountEventRoutes } from "../plugins/http-api/src/routes/event-routes.ts";
import { DEFAULT_SSE_LIMITS } from "../plugins/http-api/src/sse-client-queue.ts";

const now = (): number => performance.timeOrigin + performance.now();

interface ServerStats {
  readonly clients: number;
  readonly rssMiB: number;
  readonly dropped: number;
}

async function runServer(): Promise<void> {
  let dropped = 0;
  const logger: Logger = {
    debug() {}, info() {}, error() {}, trace() {},
    warn(message: string) {
      if (message.startsWith("dropped")) dropped++;
    },
    child() {
      return logger;
    },
  } as unknown as Logger;
  const bus = new DaemonEventBus();
  const hub = new EventStreamHub(bus, logger);
  const app = new Hono();
  mountEventRoutes(app, hub);
  app.post("/publish", (c) => {
    const count = Number(c.req.query("count") ?? "1");
    const size = Number(c.req.query("size") ?? "0");
    const pad = "x".repeat(size);
    for (let n = 0; n < count; n++) bus.publish({ type: "task.created", task: `${now()}${pad ? ` ${n}${pad}` : ""}` });
    return c.json({});
  });
  app.get("/stats", (c) => {
    (globalThis as { gc?: () => void }).gc?.();
    const body: ServerStats = { clients: hub.clientCount, rssMiB: process.memoryUsage().rss / 2 ** 20, dropped };
    return c.json(body);
  });
  const server = await serveHttp({ fetch: app.fetch });
  console.log(JSON.stringify({ url: server.url }));
  await new Promise<void>((resolve) => process.stdin.on("end", resolve).resume());
  hub.close();
  await server.close();
}

async function startServerProcess(): Promise<{ url: string; stop(): void }> {
  const self = new URL(import.meta.url).pathname;
  const args = "Deno" in globalThis ? ["run", "-A", "-q", "--v8-flags=--expose-gc", self, "--server"] : ["--expose-gc", self, "--server"];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.stdin!.end() };
}

async function stats(base: string): Promise<ServerStats> {
  return await (await fetch(`${base}/stats`)).json() as ServerStats;
}

async function publish(base: string, count: number, size = 0): Promise<void> {
  await (await fetch(`${base}/publish?count=${count}&size=${size}`, { method: "POST" })).text();
}

/** A stream client on a raw socket: records each event's delivery latency (ms). */
class Client {
  readonly latencies: number[] = [];
  ready = false;
  #buffer = "";
  readonly socket: Socket;

  constructor(base: string, read: boolean, onReady: () => void) {
    const url = new URL(base);
    this.socket = connect(Number(url.port), url.hostname, () => {
      this.socket.setNoDelay(true);
      this.socket.write(`GET /v1/events HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
      if (!read) {
        this.socket.pause();
        onReady();
      }
    });
    this.socket.on("error", () => {});
    if (!read) return;
    this.socket.on("data", (chunk: Buffer) => {
      const arrived = now();
      this.#buffer += chunk.toString("utf8");
      let at: number;
      let from = 0;
      // A cursor rather than a slice per frame: a burst arrives as one large chunk.
      while ((at = this.#buffer.indexOf("\ndata: ", from)) >= 0) {
        const end = this.#buffer.indexOf("\n", at + 7);
        if (end < 0) break;
        const data = JSON.parse(this.#buffer.slice(at + 7, end)) as { type?: string; task?: string };
        from = end;
        if (data.type === "task.created") this.latencies.push(arrived - Number(data.task!.split(" ")[0]));
        else if (!this.ready && "last_event_id" in data) {
          this.ready = true;
          onReady();
        }
      }
      this.#buffer = this.#buffer.slice(from);
    });
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function until(what: string, probe: () => boolean | Promise<boolean>, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function main(): Promise<void> {
  const clientsWanted = Number(process.argv[2] ?? 100);
  const events = Number(process.argv[3] ?? 300);
  const server = await startServerProcess();
  const base = server.url;
  try {
    const idle = await stats(base);
    let readyCount = 0;
    const clients = Array.from({ length: clientsWanted }, () => new Client(base, true, () => readyCount++));
    await until("every client ready", () => readyCount === clientsWanted);
    const connected = await stats(base);

    // Paced: one event every 5 ms, each to every client.
    for (let n = 0; n < events; n++) {
      await publish(base, 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await until("every paced event delivered", () => clients.every((c) => c.latencies.length === events));
    const paced = clients.flatMap((c) => c.latencies.splice(0)).sort((a, b) => a - b);
    // Burst: 100 events published at once.
    await publish(base, 100);
    await until("every burst event delivered", () => clients.every((c) => c.latencies.length === 100));
    const burst = clients.flatMap((c) => c.latencies.splice(0)).sort((a, b) => a - b);
    const afterLatency = await stats(base);
    for (const client of clients) client.socket.destroy();
    await until("readers gone", async () => (await stats(base)).clients === 0);

    // 100 clients that never read, then 10,000 events of 4 KiB (40 MiB each client would be sent).
    let stalledReady = 0;
    const stalled = Array.from({ length: clientsWanted }, () => new Client(base, false, () => stalledReady++));
    await until("stalled clients connected", async () => stalledReady === clientsWanted && (await stats(base)).clients === clientsWanted);
    for (let n = 0; n < 100; n++) await publish(base, 100, 4096);
    await until("stalled clients dropped", async () => (await stats(base)).clients === 0);
    const afterFlood = await stats(base);
    for (const socket of stalled) socket.socket.destroy();

    const ms = (value: number) => value.toFixed(2);
    const runtime = "Deno" in globalThis ? `Deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}` : `Node ${process.version}`;
    console.log(`Server on ${runtime}; per-client queue bound ${DEFAULT_SSE_LIMITS.maxFrames} frames / ${DEFAULT_SSE_LIMITS.maxBytes / 1024} KiB.\n`);
    console.log("| measure | value |");
    console.log("| --- | --- |");
    console.log(`| server RSS, no client | ${idle.rssMiB.toFixed(1)} MiB |`);
    console.log(`| server RSS, ${clientsWanted} connected stream clients | ${connected.rssMiB.toFixed(1)} MiB (+${(connected.rssMiB - idle.rssMiB).toFixed(1)}) |`);
    console.log(`| server RSS after ${events + 100} events to them | ${afterLatency.rssMiB.toFixed(1)} MiB |`);
    console.log(`| delivery latency, 1 event / 5 ms (${paced.length} deliveries) | p50 ${ms(percentile(paced, 50))} ms, p99 ${ms(percentile(paced, 99))} ms, max ${ms(paced.at(-1)!)} ms |`);
    console.log(`| delivery latency, burst of 100 (${burst.length} deliveries) | p50 ${ms(percentile(burst, 50))} ms, p99 ${ms(percentile(burst, 99))} ms, max ${ms(burst.at(-1)!)} ms |`);
    console.log(`| ${clientsWanted} stalled clients, 10,000 × 4 KiB events | all dropped (${afterFlood.dropped}); server RSS ${afterFlood.rssMiB.toFixed(1)} MiB |`);
  } finally {
    server.stop();
  }
}

if (process.argv.includes("--server")) await runServer();
else await main();
