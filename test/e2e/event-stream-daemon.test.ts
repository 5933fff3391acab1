/**
 * The event stream and the status page in a real daemon process, on Node (`node dist/main.js
 * start`, served by @hono/node-server) and on Deno (`deno run -A main.ts start`, Deno.serve); a
 * test plugin floods the bus on request: clients that never read are dropped (each server pulls a
 * stream's body only as the socket takes it) and the daemon's RSS stays bounded, a resumed stream
 * replays the start-up leadership event,
 * the page is served, and SIGTERM ends the daemon (exit 0) while a stream is open, and the stream
 * sees its end. Beyond CTS.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../core/plugin-testkit/src/eventually.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { repoRoot, spawnCli, type Runtime } from "../../harness/run-cli.ts";
import { SseReader } from "../helpers/sse-reader.ts";
import { DEFAULT_SSE_LIMITS } from "../../plugins/http-api/mod.ts";

const FLOOD_PLUGIN = join(repoRoot, "test/fixtures/plugins/event-flood/mod.ts");

/** Node 20 cannot import a .ts plugin: bundle it to one ESM file with the rolldown vitest ships. */
function bundledFloodPlugin(dir: string): string {
  const out = join(dir, "event-flood.mjs");
  const script = `import { build } from "rolldown";
await build({ input: ${JSON.stringify(FLOOD_PLUGIN)}, platform: "node", external: [/^node:/], write: true, logLevel: "silent",
  output: { file: ${JSON.stringify(out)}, format: "esm" } });`;
  execFileSync("node", ["--input-type=module", "-e", script], { cwd: repoRoot });
  return out;
}

for (const runtime of ["node", "deno"] as Runtime[]) describe(`event stream in a daemon on ${runtime}`, () => {
  const dir = mkdtempSync(join(tmpdir(), `cts-events-${runtime}-`));
  let consul: TestConsulDevServer;
  let daemon: ChildProcess;
  let url: string;
  let logs = "";

  beforeAll(async () => {
    consul = await startConsulDevServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    writeFileSync(join(dir, "cts.hcl"), `id = "${runtime}-events"
port = ${port}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
plugin "event-flood" {
  source = ${JSON.stringify(runtime === "deno" ? FLOOD_PLUGIN : bundledFloodPlugin(dir))}
}
`);
    daemon = spawnCli(runtime, ["start", `-config-file=${join(dir, "cts.hcl")}`], { cwd: dir });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
    await eventually(() => fetch(`${url}/v1/health`).then((r) => r.ok, () => false), "the daemon's API", 60_000, 100)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${logs}`);
      });
  }, 90_000);

  afterAll(async () => {
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill("SIGKILL");
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("streams the start-up leadership on resume and serves /ui/", async () => {
    const reader = await SseReader.open(`${url}/v1/events?last_event_id=0`);
    expect(reader.response!.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1, 20_000);
    expect(reader.events("leadership").map((e) => e.data)).toEqual([
      expect.objectContaining({ instance_id: `${runtime}-events`, is_leader: true }),
    ]);
    const page = await fetch(`${url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'self'/);
    expect(await page.text()).toContain("<main");
    reader.close();
  });

  it("drops clients that never read at their bound (the server's backpressure); the daemon's RSS stays bounded", async () => {
    const STALLED = 10;
    const flood = async (requests: number) => {
      let rss = 0;
      // 500 events of 4 KiB a request: 2 MiB, written out between requests as a live daemon does.
      for (let n = 0; n < requests; n++) rss = ((await (await fetch(`${url}/test/event-flood?count=500&size=4096`, { method: "POST" })).json()) as { rss: number }).rss;
      return rss;
    };
    const drops = () => logs.split("\n").filter((line) => line.includes("dropped an event stream client that stopped reading")).length;
    // The same flood without clients first, so the heap has grown to what this garbage rate needs.
    await flood(20);
    const before = await flood(1);
    const { hostname, port } = new URL(url);
    const sockets = await Promise.all(Array.from({ length: STALLED }, () => new Promise<Socket>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`GET /v1/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
        socket.pause();
        resolve(socket);
      });
      socket.once("error", reject);
    })));
    try {
      // 80 MiB to each client: far more than socket buffers and the queue bound together.
      const after = await flood(40);
      await eventually(() => drops() === STALLED, "every stalled client dropped", 30_000, 50)
        .catch((error: Error) => {
          throw new Error(`${error.message} (${drops()} dropped)\n${logs.slice(-2000)}`);
        });
      // Each dropped client keeps at most its queue plus the chunk being written; the slack is the
      // heap's own growth under this garbage rate on a busy machine. Unbounded queues would keep
      // the whole 80 MiB flood.
      const bound = STALLED * 2 * DEFAULT_SSE_LIMITS.maxBytes + 32 * 1024 * 1024;
      expect(bound).toBeLessThan((20_000 * 4096) / 2);
      const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
      console.log(`${runtime} daemon RSS growth with ${STALLED} stalled clients over 20,000 × 4 KiB events: ${mib(after - before)} (bound ${mib(bound)})`);
      expect(after - before).toBeLessThan(bound);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 90_000);

  it("stops on SIGTERM (exit 0) while a stream is open, and the stream sees its end", async () => {
    const reader = await SseReader.open(`${url}/v1/events`);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1, 20_000);

    const exited = new Promise<number | null>((resolve) => daemon.once("exit", (code) => resolve(code)));
    daemon.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit 30 s after SIGTERM\n${logs}`)), 30_000)),
    ]);
    expect(code, logs).toBe(0);
    await reader.waitFor("the stream to end", (r) => r.ended !== undefined, 10_000);
  }, 90_000);
});
