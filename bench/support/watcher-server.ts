/**
 * @module The server side of bench/consul-watchers.ts, run in its own child process so its CPU
 * time and memory are its own: the embedded Consul server, the two floors it is compared with (bare
 * sockets written to on "fire", and a bare node:http server) and a stats endpoint for the parent.
 */
import process from "node:process";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { serveHttp } from "../../core/runtime/serve-http.ts";
import { startConsulDevServer } from "../../dev-servers/consul/mod.ts";

export interface ServerStats {
  readonly parked: number;
  /** Sockets connected to the floor listener. */
  readonly floor: number;
  /** Requests parked on the bare HTTP server. */
  readonly http: number;
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly rssMiB: number;
}

/** Listens on 127.0.0.1 with the kernel's somaxconn as backlog: thousands of watchers connect at once. */
function listenLocal(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", 65_535, () => resolve((server.address() as AddressInfo).port)));
}

/** An answer the size of the kv scenario's, for the floor. */
const FLOOR_BYTES = new TextEncoder().encode(`HTTP/1.1 200 OK\r\n${"x".repeat(320)}`);

/**
 * The floor: what writing FLOOR_BYTES to N idle sockets costs this machine right now, with no HTTP
 * and no Consul. Watchers say "park" (a socket that never sends may never be accepted: with SYN
 * cookies a dropped final ACK is only repaired by the client's first data); a connection that says
 * "fire" makes the server write FLOOR_BYTES to every parked one.
 */
async function startFloor(): Promise<{ port: number; size(): number; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.once("data", (chunk) => {
      if (chunk.toString() !== "fire") {
        sockets.add(socket);
        return;
      }
      for (const other of sockets) other.write(FLOOR_BYTES);
      socket.end();
    });
  });
  return {
    port: await listenLocal(server),
    size: () => sockets.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** The kv scenario's answer, for the bare HTTP server. */
const KV_LIKE_HEADERS = {
  "Content-Type": "application/json", "X-Consul-Index": "12", "X-Consul-KnownLeader": "true",
  "X-Consul-LastContact": "0", "X-Consul-Effective-Consistency": "leader",
};
const KV_LIKE_BODY = JSON.stringify([{ LockIndex: 0, Key: "bench/key", Flags: 0, Value: "MQ==", CreateIndex: 11, ModifyIndex: 12 }]);

/** A bare node:http server: GET /park waits, GET /fire answers every parked request. */
async function startBareHttp(): Promise<{ port: number; size(): number; close(): void }> {
  const parked = new Set<ServerResponse>();
  const server = createHttpServer((request, response) => {
    if (request.url !== "/fire") {
      parked.add(response);
      response.on("close", () => parked.delete(response));
      return;
    }
    for (const waiting of parked) waiting.writeHead(200, KV_LIKE_HEADERS).end(KV_LIKE_BODY);
    parked.clear();
    response.end();
  });
  return {
    port: await listenLocal(server),
    size: () => parked.size,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Child mode: the Consul server, the floor listener and a tiny stats endpoint for the parent. */
export async function runServer(): Promise<void> {
  const consul = await startConsulDevServer();
  const floor = await startFloor();
  const bareHttp = await startBareHttp();
  const stats = await serveHttp({
    fetch: () => {
      const cpu = process.cpuUsage();
      const body: ServerStats = {
        parked: consul.state.hub.size,
        floor: floor.size(),
        http: bareHttp.size(),
        cpuUserMs: cpu.user / 1000,
        cpuSystemMs: cpu.system / 1000,
        rssMiB: process.memoryUsage().rss / 2 ** 20,
      };
      return Response.json(body);
    },
  });
  console.log(JSON.stringify({
    consul: consul.url, stats: stats.url, floor: `http://127.0.0.1:${floor.port}`, http: `http://127.0.0.1:${bareHttp.port}`,
  }));
  await new Promise<void>((resolve) => process.stdin.on("end", resolve).resume());
  floor.close();
  bareHttp.close();
  await stats.close();
  await consul.stop();
}
