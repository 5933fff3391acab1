/**
 * Bounded connections (beyond CTS, whose 15 s read timeout cts-runtime had lifted to none): the
 * real daemon under `ulimit -n 256`. 200 clients that send a request's headers and then its body
 * one byte at a time are answered 408 and closed at the request deadline (api.request_timeout,
 * 2s here) while the API keeps answering; clients that go away mid-body are no daemon error (DEBUG,
 * not ERROR); and of 500 `/v1/events` clients (in waves of 50) only api.max_event_streams get a
 * stream, the others 503 with Retry-After, while the API answers. The deadline holds on Deno too.
 */
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { answers, type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import type { Runtime } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const MAX_STREAMS = 40;

interface SlowClient {
  readonly socket: Socket;
  answer: string;
  closed: boolean;
}

/**
 * Sends the headers of a 1000-byte POST, then one body byte every 300 ms until the server hangs up.
 * With `Expect: 100-continue` the server's `100 Continue` says the request reached the API.
 */
function slowBody(port: number, expectContinue = false): SlowClient {
  const socket = connect(port, "127.0.0.1");
  const client: SlowClient = { socket, answer: "", closed: false };
  let timer: ReturnType<typeof setInterval> | undefined;
  socket.on("connect", () => {
    const expect = expectContinue ? "Expect: 100-continue\r\n" : "";
    socket.write(`POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n${expect}\r\n{`);
    timer = setInterval(() => socket.write(" "), 300);
  });
  socket.on("data", (chunk) => (client.answer += chunk));
  socket.on("error", () => {});
  socket.on("close", () => {
    clearInterval(timer);
    client.closed = true;
  });
  return client;
}

/** Opens `GET /v1/events`; resolves with the status (and Retry-After) once the answer's head arrives. */
function openStream(port: number, streams: (() => void)[]): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/v1/events", agent: false }, (response) => {
      streams.push(() => response.destroy());
      response.on("error", () => {});
      if (response.statusCode !== 200) response.resume();
      resolve({ status: response.statusCode ?? 0, ...(response.headers["retry-after"] ? { retryAfter: String(response.headers["retry-after"]) } : {}) });
    });
    req.on("error", (error) => resolve({ status: -1, retryAfter: error.message }));
    req.end();
  });
}

/** The daemon under `ulimit -n 256`, with a 2 s request deadline and room for MAX_STREAMS streams. */
async function startBoundedDaemon(runtime: Runtime, dir: string, consulAddress: string, port: number): Promise<DaemonProcess> {
  const file = join(dir, `cts-${runtime}.hcl`);
  writeFileSync(file, `log_level = "DEBUG"
port      = ${port}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
api {
  request_timeout   = "2s"
  max_event_streams = ${MAX_STREAMS}
}
consul {
  address = "${consulAddress}"
  service_registration {
    enabled = false
  }
}
`);
  const daemon = startDaemon(runtime, file, { cwd: dir, env: terraformTestEnv(), fileLimit: 256 });
  await waitForDaemon(daemon, answers(`http://127.0.0.1:${port}/v1/health`), 60_000);
  return daemon;
}

describe("bounded connections under ulimit -n 256", () => {
  let consul: TestConsulDevServer;
  let daemon: DaemonProcess;
  let port = 0;
  const tmp = tempDir("api-bounds");
  const status = async () => (await fetch(`http://127.0.0.1:${port}/v1/status`)).status;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    port = await freePort();
    daemon = await startBoundedDaemon("node", tmp.path, consul.address, port);
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    tmp.remove();
  });

  it("closes 200 slow-body requests at the deadline with 408 while the API answers, and logs no error", async () => {
    const clients = Array.from({ length: 200 }, () => slowBody(port));
    await until("200 slow clients connected", () => (clients.every((client) => client.socket.readyState === "open" || client.closed) ? true : undefined));
    // Held open by their trickle of bytes, yet the API answers others.
    expect(await status()).toBe(200);
    await until("every slow client closed by the daemon", () => (clients.every((client) => client.closed) ? true : undefined), 30_000);
    expect(clients.filter((client) => client.answer.startsWith("HTTP/1.1 408"))).toHaveLength(200);
    expect(await status()).toBe(200);
    // Clients that give up mid-body are theirs to regret, not the daemon's error (after the 200, which
    // with the daemon's own descriptors leave no room for more under 256).
    const quitters = Array.from({ length: 20 }, () => slowBody(port, true));
    await until("the quitters' requests to reach the API", () => (quitters.every((client) => client.answer.includes("100 Continue")) ? true : undefined));
    for (const quitter of quitters) quitter.socket.destroy();
    expect(await status()).toBe(200);
    // Each of the 220 is one DEBUG line (the 200 cut at the deadline, the 20 that left), none an ERROR.
    const wentAway = (): number => daemon.output().match(/\[DEBUG\] api: the client went away before its request arrived/g)?.length ?? 0;
    await until("a DEBUG line for each client that left or was cut off", () => (wentAway() >= 220 || /\[ERROR\]/.test(daemon.output()) ? true : undefined));
    expect(daemon.output()).not.toMatch(/\[ERROR\]/);
    expect(wentAway()).toBe(220);
    expect(daemon.process.exitCode).toBeNull();
  }, 60_000);

  it("keeps at most api.max_event_streams of 500 /v1/events clients, answering the rest 503 with Retry-After", async () => {
    const streams: (() => void)[] = [];
    try {
      // In waves of 50, so that the clients waiting for an answer stay well within the 256 descriptors
      // (a stampede past the descriptor limit is refused by the kernel, not by the daemon's cap).
      const answers: { status: number; retryAfter?: string }[] = [];
      for (let wave = 0; wave < 10; wave++) {
        answers.push(...await Promise.all(Array.from({ length: 50 }, () => openStream(port, streams))));
      }
      const opened = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status === 503);
      expect(opened).toHaveLength(MAX_STREAMS);
      expect(refused).toHaveLength(500 - MAX_STREAMS);
      expect(new Set(refused.map((answer) => answer.retryAfter))).toEqual(new Set(["5"]));
      expect(await status()).toBe(200);
    } finally {
      for (const close of streams) close();
    }
    // Closed streams make room again.
    await until("a stream to open again", async () => {
      const again: (() => void)[] = [];
      const answer = await openStream(port, again);
      for (const close of again) close();
      return answer.status === 200 ? true : undefined;
    }, 10_000);
    expect(daemon.process.exitCode).toBeNull();
  }, 60_000);
});

describe("the request deadline on Deno", () => {
  it("closes slow-body requests with 408 there too (Deno.serve has no deadline: the node:http layer serves)", async () => {
    const consul = await startConsulDevServer();
    const tmp = tempDir("api-bounds-deno");
    const port = await freePort();
    const daemon = await startBoundedDaemon("deno", tmp.path, consul.address, port);
    try {
      const clients = Array.from({ length: 20 }, () => slowBody(port));
      await until("every slow client closed by the daemon", () => (clients.every((client) => client.closed) ? true : undefined), 30_000);
      expect(clients.filter((client) => client.answer.startsWith("HTTP/1.1 408"))).toHaveLength(20);
      expect((await fetch(`http://127.0.0.1:${port}/v1/status`)).status).toBe(200);
    } finally {
      await daemon.stop();
      await consul.stop();
      tmp.remove();
    }
  }, 120_000);
});
