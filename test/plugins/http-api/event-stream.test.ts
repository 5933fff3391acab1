/**
 * `GET /v1/events` over real HTTP from a real kernel (engine, store, leadership, consul-client,
 * http-api; the recording driver). Events are published on the kernel's bus directly, as the
 * engine and the other plugins do. Beyond CTS: CTS has no event stream.
 */
import { connect, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonEventsToken, type DaemonEvent, type DaemonEvents } from "../../../core/plugin-api/mod.ts";
import { eventually } from "../../../core/plugin-testkit/src/eventually.ts";
import { Hono } from "hono";
import { DaemonEventBus } from "../../../core/kernel/daemon-event-bus.ts";
import { DEFAULT_SSE_LIMITS, EventStreamHub, HEARTBEAT_MS } from "../../../plugins/http-api/mod.ts";
import { mountEventRoutes } from "../../../plugins/http-api/src/routes/event-routes.ts";
import { SseReader } from "../../helpers/sse-reader.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";

const created = (task: string): DaemonEvent => ({ type: "task.created", task });

/** A run.ended event of about `size` bytes, distinct per `n` (so nothing is shared between events). */
function bigEvent(n: number, size: number): DaemonEvent {
  return {
    type: "run.ended",
    run: {
      id: `run-${n}`, task: "flood", trigger: { kind: "api" }, change: {}, outcome: "failed",
      error: `${n}:`.padEnd(size, "x"), started_at: new Date().toISOString(), instance_id: "cts-api-test",
    },
  };
}

/** A client that sends the request and then never reads (its socket stays paused). */
function stalledClient(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET /v1/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("GET /v1/events", () => {
  let daemon: ApiKernel;
  let bus: DaemonEvents;
  beforeAll(async () => {
    daemon = await startApiKernel();
    bus = daemon.kernel.resolve(daemonEventsToken);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it("streams every published event with its number as id, its type as event and JSON data", async () => {
    const reader = await SseReader.open(`${daemon.url}/v1/events`);
    expect(reader.response!.status).toBe(200);
    expect(reader.response!.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await reader.waitFor("the ready event", (r) => r.events("ready").length === 1);
    const ready = reader.events("ready")[0]!;
    bus.publish(created("alpha"));
    bus.publish({ type: "consul.connection", state: "lost", error: "connection refused" });
    await reader.waitFor("two events", (r) => r.events().length === 3);
    const [first, second] = reader.events().slice(1);
    expect(first).toMatchObject({ id: ready.id + 1, event: "task.created", data: { type: "task.created", task: "alpha", id: ready.id + 1 } });
    expect(second).toMatchObject({ id: ready.id + 2, event: "consul.connection", data: { state: "lost", error: "connection refused" } });
    expect(typeof first!.data.time).toBe("string");
    reader.close();
    // The server notices the client left and forgets it.
    await eventually(() => daemon.logs.some((line) => line.includes("event stream client disconnected") && /clients=0\b/.test(line)),
      "the disconnect", 10_000);
  });

  it("resumes after Last-Event-ID (header or query) with exactly the events the client missed", async () => {
    const reader = await SseReader.open(`${daemon.url}/v1/events`);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1);
    bus.publish(created("seen-1"));
    bus.publish(created("seen-2"));
    await reader.waitFor("two events", (r) => r.events("task.created").length === 2);
    const lastSeen = reader.events("task.created")[1]!.id;
    reader.close();
    for (const task of ["missed-1", "missed-2", "missed-3"]) bus.publish(created(task));

    for (const resume of [{ headers: { "last-event-id": String(lastSeen) } }, { query: `?last_event_id=${lastSeen}` }]) {
      const again = await SseReader.open(`${daemon.url}/v1/events${resume.query ?? ""}`, { headers: resume.headers ?? {} });
      await again.waitFor("ready after the missed events", (r) => r.events("ready").length === 1);
      expect(again.events().map((e) => [e.event, e.data.task ?? null])).toEqual([
        ["task.created", "missed-1"], ["task.created", "missed-2"], ["task.created", "missed-3"], ["ready", null],
      ]);
      expect(again.events().map((e) => e.id)).toEqual([lastSeen + 1, lastSeen + 2, lastSeen + 3, lastSeen + 3]);
      expect(again.events("resync")).toEqual([]);
      again.close();
    }
  });

  it("replays every retained event as the README says (the newest 1000), run records included; run output is never replayed", async () => {
    const reader = await SseReader.open(`${daemon.url}/v1/events`);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1);
    const lastSeen = reader.events("ready")[0]!.id;
    reader.close();
    // 1000 state events of realistic size (a run's end carries its record's summary), with live output between them.
    const run = { id: "1796290833123-3f9a1c2e", task: "replayed", trigger: { kind: "dependency" as const, detail: "/v1/health/service/web?passing=1" },
      change: { services: { added: ["web-1.node-1.dc1"], removed: [], changed: [{ id: "web-2.node-1.dc1", fields: ["address"] }] } },
      outcome: "applied" as const, started_at: new Date().toISOString(), instance_id: "cts-1" };
    for (let n = 0; n < 1000; n++) {
      bus.publish({ type: "run.ended", run: { ...run, id: `${run.id}${n}` } });
      bus.publish({ type: "run.output", task: "replayed", run_id: run.id, phase: "apply", offset: n * 10, text: "some line\n" });
    }
    const again = await SseReader.open(`${daemon.url}/v1/events`, { headers: { "last-event-id": String(lastSeen) } });
    await again.waitFor("ready after the missed events", (r) => r.events("ready").length === 1, 20_000);
    expect(again.events("resync")).toEqual([]);
    expect(again.events("run.ended")).toHaveLength(1000);
    expect(again.events("run.output")).toEqual([]);
    again.close();
  });

  it("sends resync when the events after the id are no longer retained, or the id is from an earlier run", async () => {
    const reader = await SseReader.open(`${daemon.url}/v1/events`);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1);
    const old = reader.events("ready")[0]!.id;
    reader.close();
    // The bus keeps the newest 1000.
    for (let n = 0; n < 1001; n++) bus.publish(created(`t${n}`));
    const tooOld = await SseReader.open(`${daemon.url}/v1/events`, { headers: { "last-event-id": String(old) } });
    await tooOld.waitFor("ready", (r) => r.events("ready").length === 1);
    expect(tooOld.events().map((e) => e.event)).toEqual(["resync", "ready"]);
    expect(tooOld.events("resync")[0]!.data).toEqual({ last_event_id: old + 1001, requested: old });
    tooOld.close();

    const future = await SseReader.open(`${daemon.url}/v1/events?last_event_id=99999999`);
    await future.waitFor("ready", (r) => r.events("ready").length === 1);
    expect(future.events().map((e) => e.event)).toEqual(["resync", "ready"]);
    future.close();
  });

  it("rejects a bad last event id, unknown parameters and other methods", async () => {
    const bad = await fetch(`${daemon.url}/v1/events?last_event_id=abc`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("last event id 'abc'");
    const header = await fetch(`${daemon.url}/v1/events`, { headers: { "last-event-id": "-1" } });
    expect(header.status).toBe(400);
    const unknown = await fetch(`${daemon.url}/v1/events?since=3`);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toContain("'since'");
    expect((await fetch(`${daemon.url}/v1/events`, { method: "POST" })).status).toBe(405);
    const doc = await (await fetch(`${daemon.url}/v1/openapi.json`)).json();
    expect(Object.keys(doc.paths["/v1/events"])).toEqual(["get"]);
    expect(doc.paths["/v1/events"].get.responses[200].content).toHaveProperty("text/event-stream");
  });

  it("drops clients that never read at their buffer bound; the daemon's memory stays bounded by clients × bound", async () => {
    const STALLED = 10;
    const EVENT_BYTES = 4096;
    // 40,000 distinct events of 4 KiB: 160 MiB that unbounded queues would keep.
    const FLOOD = 40_000;
    // A client closed by an earlier test may have been dropped too before the server saw it leave.
    const drops = () => daemon.logs.filter((line) => line.includes("dropped an event stream client that stopped reading")).length;
    const dropsBefore = drops();
    const flood = async (count: number, onBurst: () => void = () => {}) => {
      for (let n = 0; n < count; n++) {
        bus.publish(bigEvent(n, EVENT_BYTES));
        // Let the server write between bursts (64 KiB), as a live daemon does between events.
        if (n % 16 === 15) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          onBurst();
        }
      }
    };
    // The same flood without stalled clients first: the heap grows to what this rate of garbage
    // needs, so what the measured flood adds is what the stalled clients cost.
    await flood(FLOOD / 4);
    collectGarbage();
    const before = process.memoryUsage();
    const sockets = await Promise.all(Array.from({ length: STALLED }, () => stalledClient(daemon.url)));
    // It runs in this process too, so it keeps counts only, not the 160 MiB it reads.
    const watcher = await SseReader.open(`${daemon.url}/v1/events`, { retain: false });
    await watcher.waitFor("ready", (r) => r.counts.get("ready") === 1);
    let peakRss = 0;
    await flood(FLOOD, () => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    });
    await eventually(() => drops() === dropsBefore + STALLED, "every stalled client dropped", 20_000);
    // A client that reads keeps up and gets everything.
    await watcher.waitFor("the whole flood", (r) => r.counts.get("run.ended") === FLOOD, 60_000);
    expect(watcher.ended).toBeUndefined();
    watcher.close();
    collectGarbage();
    const after = process.memoryUsage();
    // What the process keeps (the V8 heap and the buffers outside it, after a collection): each
    // dropped client held at most its queue plus the one chunk the server was writing, and the
    // slack covers this test's own sockets and the collector's granularity. RSS is reported, not
    // asserted: it follows the allocator's garbage high-water mark, not what is kept.
    const retained = (usage: NodeJS.MemoryUsage) => usage.heapUsed + usage.external;
    const growth = retained(after) - retained(before);
    const bound = STALLED * 2 * DEFAULT_SSE_LIMITS.maxBytes + 32 * 1024 * 1024;
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    console.log(
      `${STALLED} stalled clients, ${FLOOD} × ${EVENT_BYTES} B events: retained growth ${mib(growth)} (bound ${mib(bound)}), ` +
        `peak RSS growth ${mib(peakRss - before.rss)}`,
    );
    expect(growth).toBeLessThan(bound);
    expect(bound).toBeLessThan(FLOOD * EVENT_BYTES / 4);

    // A dropped client that reads again gets what was in flight, then the end of the response
    // (chunked encoding's last chunk); it would resume from the last id it saw.
    const socket = sockets[0]!;
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.resume();
    await eventually(() => received.endsWith("\r\n0\r\n\r\n"), "the end of the dropped client's response", 20_000);
    const ids = [...received.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.at(-1)!).toBeLessThan(Number(watcher.lastId));
    for (const each of sockets) each.destroy();
  }, 90_000);
});

describe("the event stream hub", () => {
  it("sends a heartbeat comment on an idle stream (every 15 s by default), ends streams when closed, opens none for HEAD", async () => {
    expect(HEARTBEAT_MS).toBe(15_000);
    const logs: string[] = [];
    const logger = { warn: (message: string) => logs.push(message), debug: (message: string) => logs.push(message) } as unknown as import("../../../core/plugin-api/mod.ts").Logger;
    const hub = new EventStreamHub(new DaemonEventBus(), logger, { heartbeatMs: 20 });
    const app = new Hono();
    mountEventRoutes(app, hub);
    const head = await app.request("/v1/events", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(hub.clientCount).toBe(0);
    const response = await app.request("/v1/events");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": heartbeat\n\n")) text += decoder.decode((await reader.read()).value);
    expect(text.startsWith("retry: 2000\n\nid: 0\nevent: ready\ndata: {\"last_event_id\":0}\n\n")).toBe(true);
    expect(hub.clientCount).toBe(1);
    hub.close();
    for (;;) if ((await reader.read()).done) break;
    expect(hub.clientCount).toBe(0);
    const late = await app.request("/v1/events");
    expect(await late.text()).toBe("");
  });

  it("delivers one event larger than the byte bound to a client that keeps up", async () => {
    const bus = new DaemonEventBus();
    const logger = { warn: () => {}, debug: () => {} } as unknown as import("../../../core/plugin-api/mod.ts").Logger;
    const hub = new EventStreamHub(bus, logger, { limits: { maxFrames: 10, maxBytes: 1024 } });
    const app = new Hono();
    mountEventRoutes(app, hub);
    const reader = (await app.request("/v1/events")).body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (marker: string) => {
      while (!text.includes(marker)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended before "${marker}"`);
        text += decoder.decode(value);
      }
    };
    await readUntil("event: ready");
    bus.publish(bigEvent(1, 4096));
    await readUntil("event: run.ended");
    expect(hub.clientCount).toBe(1);
    hub.close();
  });
});
