/**
 * @module An HTTP proxy in front of the embedded Consul server that records every answered request
 * (method, path, query, X-Consul-Index, body), so a test or bench can see what the cluster members
 * read, how often and how many bytes, over real HTTP and whatever the server itself offers.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedExchange {
  readonly method: string;
  readonly path: string;
  /** The query as the client sent it (before `stripNamespace` took `ns` out). */
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The response's X-Consul-Index (0 when absent). */
  readonly index: number;
  readonly status: number;
  readonly body: string;
  readonly bytes: number;
}

export interface RecordingProxy {
  readonly address: string;
  /** Every exchange answered so far, in the order the answers ended. */
  readonly exchanges: RecordedExchange[];
  /**
   * While on, answers to blocking reads (`index` > 0) are kept back until it is turned off: the
   * client behind the proxy sees Consul as it was, as a member whose watch has not caught up would.
   */
  holdBlocking(on: boolean): void;
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /**
   * Records `ns` and forwards the request without it: the embedded Consul refuses namespaces as
   * Consul CE does, so a client configured for a Consul Enterprise namespace can run against it.
   */
  readonly stripNamespace?: boolean;
}

export async function startRecordingProxy(
  target: { hostname: string; port: number }, options: RecordingProxyOptions = {},
): Promise<RecordingProxy> {
  const exchanges: RecordedExchange[] = [];
  let holding = false;
  const held: (() => void)[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://proxy");
    const upstream = httpRequest({
      hostname: target.hostname, port: target.port, method: incoming.method, path: forwardedPath(incoming.url ?? "/", options),
      headers: incoming.headers,
    }, (answer: IncomingMessage) => {
      if (holding && Number(url.searchParams.get("index") ?? 0) > 0) {
        answer.pause();
        held.push(() => forward(answer));
        return;
      }
      forward(answer);
    });
    const forward = (answer: IncomingMessage): void => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.pipe(outgoing);
      answer.on("end", () => {
        const body = Buffer.concat(chunks);
        exchanges.push({
          method: incoming.method ?? "GET", path: url.pathname, query: url.searchParams, headers: incoming.headers,
          index: Number(answer.headers["x-consul-index"] ?? 0), status: answer.statusCode ?? 0, body: body.toString("utf8"), bytes: body.length,
        });
      });
      answer.resume();
    };
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // The client went away (an aborted blocking query): drop the upstream request too.
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    exchanges,
    holdBlocking(on) {
      holding = on;
      if (!on) for (const release of held.splice(0)) release();
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The path and query as received (byte for byte), less `ns` when namespaces are stripped. */
function forwardedPath(raw: string, options: RecordingProxyOptions): string {
  if (!options.stripNamespace) return raw;
  const [path, query = ""] = raw.split("?", 2) as [string, string?];
  const kept = query.split("&").filter((pair) => pair !== "" && !pair.startsWith("ns="));
  return kept.length > 0 ? `${path}?${kept.join("&")}` : path;
}
