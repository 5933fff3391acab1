/**
 * @module A small HTTP proxy in front of the embedded Consul server that counts requests per
 * path and the most that were ever in flight at once per query, so tests can prove that tasks
 * share one blocking query (whatever the server itself offers).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface CountingProxy {
  readonly address: string;
  /** Requests seen per path (without query string). */
  count(path: string): number;
  /** Most requests to `path` in flight at the same time. */
  maxInFlight(path: string): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: { hostname: string; port: number }): Promise<CountingProxy> {
  const counts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? "/").split("?")[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const now = (inFlight.get(path) ?? 0) + 1;
    inFlight.set(path, now);
    peaks.set(path, Math.max(peaks.get(path) ?? 0, now));
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
    };
    const upstream = httpRequest({
      hostname: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers,
    }, (answer: IncomingMessage) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
      answer.on("end", finish);
    });
    upstream.on("error", () => {
      finish();
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // The response closing before it finished means the client went away (aborted blocking query).
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) upstream.destroy();
      finish();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    count: (path) => counts.get(path) ?? 0,
    maxInFlight: (path) => peaks.get(path) ?? 0,
    reset() {
      counts.clear();
      peaks.clear();
      for (const [path, n] of inFlight) peaks.set(path, n);
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
