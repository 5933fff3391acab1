/**
 * @module serveHttp: one fetch handler served on Deno (`Deno.serve`) or Node (`@hono/node-server`),
 * with optional TLS/mTLS, and a close() that also ends parked long-polls at once.
 */
import { descriptorGuard } from "./descriptor-guard.ts";

export interface ServeHttpTls {
  /** PEM certificate chain. */
  readonly cert: string;
  /** PEM private key. */
  readonly key: string;
  /** PEM CA bundle used to verify client certificates. */
  readonly ca?: string;
  /** Ask clients for a certificate and reject those not signed by `ca`. */
  readonly requestCert?: boolean;
}

export interface ServeHttpOptions {
  readonly fetch: (request: Request) => Response | Promise<Response>;
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** 0 picks a free port. @default 0 */
  readonly port?: number;
  readonly tls?: ServeHttpTls;
  /**
   * How long a request (headers and body) may take to arrive; the connection then gets 408 and is
   * closed. Answers are not bounded: a long-poll or an event stream may last as long as it likes.
   * Given, it is enforced on Deno too (served by Deno's node:http layer instead of Deno.serve).
   * @default 15000 on Node; none on Deno
   */
  readonly requestTimeoutMs?: number;
  /**
   * Sheds load while the process is short of file descriptors: new requests are answered 503 and
   * their connection closed, except those `keepServing` names (a health check that must not fail).
   */
  readonly shedLoad?: { readonly keepServing: (pathname: string) => boolean };
  /** Told of server errors that are not one request's (accept failing with EMFILE); the server keeps listening. */
  readonly onError?: (error: Error) => void;
}

export interface HttpServerHandle {
  readonly port: number;
  /** `http://host:port` or `https://host:port`, without a trailing slash. */
  readonly url: string;
  /** Stops accepting, answers in-flight requests with 503 and closes every connection. Idempotent. */
  close(): Promise<void>;
}

/** CTS's read timeout (Go's http.Server ReadTimeout: headers and body). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

type Pending = (response: Response) => void;

/**
 * Long-polls park inside the handler; Deno's shutdown() and Node's close() both wait for them.
 * Each in-flight request therefore races against close(): a registry of resolvers (not
 * Promise.race on a shared promise, which would leak one reaction per request).
 */
function trackInFlight(fetch: ServeHttpOptions["fetch"], shedLoad: ServeHttpOptions["shedLoad"]): {
  handler: (request: Request) => Promise<Response>;
  abortAll(): void;
} {
  const pending = new Set<Pending>();
  let closing = false;
  const handler = (request: Request): Promise<Response> => {
    if (closing) return Promise.resolve(new Response("Server is shutting down", { status: 503 }));
    if (shedLoad && descriptorGuard.short() && !shedLoad.keepServing(new URL(request.url).pathname)) {
      return Promise.resolve(shortOfDescriptors());
    }
    return new Promise<Response>((resolve, reject) => {
      pending.add(resolve);
      Promise.resolve()
        .then(() => fetch(request))
        .then(
          (response) => { pending.delete(resolve); resolve(response); },
          (error: unknown) => { pending.delete(resolve); reject(error); },
        );
    });
  };
  const abortAll = (): void => {
    closing = true;
    for (const resolve of pending) resolve(new Response("Server is shutting down", { status: 503 }));
    pending.clear();
  };
  return { handler, abortAll };
}

/** Answered before the body is read, so a slow sender cannot hold the connection open. */
function shortOfDescriptors(): Response {
  return Response.json(
    { error: { message: "Cannot serve the request: the server is short of file descriptors; retry later" } },
    { status: 503, headers: { "retry-after": "1", connection: "close" } },
  );
}

interface DenoServeLike {
  serve(
    options: Record<string, unknown>,
    handler: (request: Request) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void>; finished: Promise<void> };
}

function urlFor(hostname: string, port: number, secure: boolean): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `${secure ? "https" : "http"}://${host}:${port}`;
}

/**
 * The runtime's own Response, taken before @hono/node-server is first imported: a server with a
 * request bound replaces the global Response with node-server's class (which its request handling
 * relies on, so it must), and Deno.serve accepts only Deno's own.
 */
const NativeResponse = globalThis.Response;

/** An answer Deno.serve accepts: one made with the replaced global (any other class) is copied into Deno's own. */
function asNativeResponse(answer: Response): Response {
  // Not `instanceof`: node-server's class passes it (its prototype chain leads to Deno's) and is still refused.
  if (Object.getPrototypeOf(answer) === NativeResponse.prototype) return answer;
  return new NativeResponse(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}

async function serveDeno(deno: DenoServeLike, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const hostname = options.hostname ?? "127.0.0.1";
  const tracked = trackInFlight(options.fetch, options.shedLoad);
  const abortAll = tracked.abortAll;
  const handler = async (request: Request): Promise<Response> => asNativeResponse(await tracked.handler(request));
  const controller = new AbortController();
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => { listening = resolve; });
  const server = deno.serve({
    hostname,
    port: options.port ?? 0,
    signal: controller.signal,
    onListen: () => listening(),
    ...(options.tls ? { cert: options.tls.cert, key: options.tls.key } : {}),
  }, handler);
  await ready;
  const port = server.addr.port;
  let closed: Promise<void> | undefined;
  return {
    port,
    url: urlFor(hostname, port, options.tls !== undefined),
    close() {
      closed ??= (async () => {
        abortAll();
        controller.abort();
        await server.finished.catch(() => undefined);
      })();
      return closed;
    },
  };
}

async function serveNode(options: ServeHttpOptions): Promise<HttpServerHandle> {
  const hostname = options.hostname ?? "127.0.0.1";
  const { createAdaptorServer } = await import("@hono/node-server");
  const { handler, abortAll } = trackInFlight(options.fetch, options.shedLoad);
  const tls = options.tls;
  // Node checks its request deadlines on this interval (30 s by default): a fraction of the bound.
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const connectionsCheckingInterval = Math.max(250, Math.min(1_000, Math.floor(requestTimeoutMs / 4)));
  let server;
  if (tls) {
    const https = await import("node:https");
    const { clientCertificateAccepted, pemCertificates, sharesSubject } = await import("./client-cert-issuers.ts");
    const cas = tls.ca !== undefined ? pemCertificates(tls.ca) : [];
    // Node refuses a client on OpenSSL's verdict (and OpenSSL itself one without a certificate). Only
    // where that verdict is known to be wrong (two trusted CAs of one name: it tries one of them) does
    // the connection go on, to the re-check of exactly that failure below. Deno's node:https verifies
    // with rustls, which tries every CA of a name.
    const recheckClients = tls.requestCert === true && sharesSubject(cas) && !("Deno" in globalThis);
    server = createAdaptorServer({
      fetch: handler,
      hostname,
      createServer: https.createServer,
      serverOptions: {
        cert: tls.cert,
        key: tls.key,
        ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
        requestCert: tls.requestCert ?? false,
        rejectUnauthorized: (tls.requestCert ?? false) && !recheckClients,
        connectionsCheckingInterval,
      },
    });
    if (recheckClients) {
      // Prepended: runs before the HTTP layer reads a byte from the connection.
      (server as import("node:https").Server).prependListener("secureConnection", (socket) => {
        if (!clientCertificateAccepted(socket, cas)) socket.destroy();
      });
    }
  } else {
    server = createAdaptorServer({ fetch: handler, hostname, serverOptions: { connectionsCheckingInterval } });
  }
  const httpServer = server as import("node:http").Server;
  // The request (not the answer: long-polls and event streams last) must arrive within the bound.
  httpServer.requestTimeout = requestTimeoutMs;
  httpServer.headersTimeout = requestTimeoutMs;
  httpServer.keepAliveTimeout = 65_000;
  httpServer.maxHeadersCount = 0;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    // Once listening, an accept that fails (EMFILE) is an `error` event: unheard, it would end the process.
    httpServer.once("listening", () => httpServer.on("error", (error) => options.onError?.(error)));
    // Thousands of watchers may connect at once; Node's default backlog (511) drops the excess to SYN
    // retries. The kernel caps this at net.core.somaxconn, the backlog Go's (and Consul's) listeners use.
    httpServer.listen({ port: options.port ?? 0, host: hostname, backlog: 65_535 }, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  let closed: Promise<void> | undefined;
  return {
    port,
    url: urlFor(hostname, port, tls !== undefined),
    close() {
      closed ??= new Promise<void>((resolve) => {
        abortAll();
        httpServer.close(() => resolve());
        // Let the 503s flush, then drop idle keep-alive sockets and anything still open.
        httpServer.closeIdleConnections();
        setImmediate(() => httpServer.closeAllConnections());
      });
      return closed;
    },
  };
}

/** Serves `fetch` until close(); resolves once listening. */
export function serveHttp(options: ServeHttpOptions): Promise<HttpServerHandle> {
  const deno = (globalThis as { Deno?: DenoServeLike }).Deno;
  // Deno.serve can neither verify client certificates nor bound how long a request takes to arrive
  // (a slow client holds its connection for ever); Deno's node:http(s) layer does both.
  if (deno && !options.tls?.requestCert && options.requestTimeoutMs === undefined) return serveDeno(deno, options);
  return serveNode(options);
}
