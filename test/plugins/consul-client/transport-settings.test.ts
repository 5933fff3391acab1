/**
 * consul.transport and consul.auth as CTS honours them (Go's http.Transport through hcat): a
 * connection that is not made within dial_timeout and a TLS handshake that does not complete within
 * tls_handshake_timeout fail with errors naming the setting; max_idle_conns caps the idle sockets kept
 * (and max_idle_conns_per_host = 0 means Go's 2); auth.enabled = false sends no credentials.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { consulQuery } from "../../../core/plugin-api/mod.ts";
import { until } from "../../../harness/until.ts";
import { testClient, type TestConsulConfig } from "../../../harness/consul-client/client-options.ts";
import { answer, startScriptedServer } from "./scripted-server.ts";

const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tlsOn: TestConsulConfig["tls"] = { enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };

/** A TCP server that accepts every connection and never sends a byte (no TLS handshake either). */
async function silentServer(): Promise<string> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  }));
  return `127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A listening socket whose accept queue is full and never drained (Python, which can listen without
 * accepting): the kernel drops further connection attempts, so a connect neither succeeds nor fails.
 */
async function unacceptingListener(): Promise<string> {
  const child: ChildProcess = spawn("python3", ["-c", [
    "import socket, sys, time",
    "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)",
    "port = s.getsockname()[1]",
    "fill = [socket.socket() for _ in range(3)]",
    "for c in fill: c.setblocking(False); c.connect_ex(('127.0.0.1', port))",
    "print(port, flush=True); sys.stdin.read()",
  ].join("\n")], { stdio: ["pipe", "pipe", "inherit"] });
  cleanups.push(() => void child.kill());
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("error", reject);
  });
  return `127.0.0.1:${port}`;
}

async function leaderError(address: string, overrides: Partial<TestConsulConfig>): Promise<Error> {
  const { client } = await testClient(address, overrides);
  cleanups.push(() => client.close());
  return await client.query(consulQuery("/v1/status/leader"), { retry: false }).then(
    () => new Error("expected the query to fail"),
    (error: unknown) => error as Error,
  );
}

describe("consul.transport", () => {
  it("tls_handshake_timeout: a Consul that accepts and never answers the handshake fails with that setting's name", async () => {
    const error = await leaderError(await silentServer(), { tls: tlsOn, transport: { tls_handshake_timeout: 300 } });
    expect(error.message).toMatch(/^Cannot query \/v1\/status\/leader: TLS handshake timeout: 127\.0\.0\.1:\d+ accepted the connection but did not complete the TLS handshake within 300ms \(tls_handshake_timeout\)$/);
  }, 15_000);

  it("dial_timeout: a connection that is never established fails with that setting's name", async () => {
    const error = await leaderError(await unacceptingListener(), { transport: { dial_timeout: 400 } });
    expect(error.message).toMatch(/^Cannot query \/v1\/status\/leader: no connection to 127\.0\.0\.1:\d+ within 400ms \(dial_timeout\)$/);
  }, 15_000);

  it("max_idle_conns caps the idle sockets kept; max_idle_conns_per_host = 0 keeps Go's 2", async () => {
    const server = await startScriptedServer((_req, res) => void setTimeout(() => answer(res, 200, '"x"', { "x-consul-index": "1" }), 150));
    cleanups.push(() => server.close());
    // Four queries at once open four sockets; once answered, the pool keeps at most the limit of them.
    const idleSettlesAt = async (transport: Record<string, unknown>, kept: number): Promise<void> => {
      const { client } = await testClient(server.address, { transport });
      cleanups.push(() => client.close());
      // Distinct queries: fetches of one query are spaced apart, which would let them share a socket.
      await Promise.all(Array.from({ length: 4 }, (_, n) => client.query(consulQuery(`/v1/kv/key-${n}`), { retry: false })));
      await until(`${kept} idle sockets kept with ${JSON.stringify(transport)}`, () => (client.socketCount() === kept ? true : undefined), 5_000);
    };
    await idleSettlesAt({ max_idle_conns: 1 }, 1);
    await idleSettlesAt({ max_idle_conns_per_host: 0 }, 2);
    await idleSettlesAt({}, 4);
  });
});

describe("consul.auth", () => {
  it("enabled = false sends no credentials even with a username and password (CTS)", async () => {
    const server = await startScriptedServer((_req, res) => answer(res, 200, '"x"', { "x-consul-index": "1" }));
    cleanups.push(() => server.close());
    for (const enabled of [false, true]) {
      const { client } = await testClient(server.address, { auth: { enabled, username: "cts", password: "hunter2" } });
      cleanups.push(() => client.close());
      await client.query(consulQuery("/v1/status/leader"), { retry: false });
    }
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([undefined, `Basic ${btoa("cts:hunter2")}`]);
  });
});
