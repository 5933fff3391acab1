/**
 * @module A small HTTP(S) client with CA bundles and client certificates, for the CLI's API client.
 *
 * `fetch` cannot take a CA or a client certificate on Node, so requests go through node:http(s) on
 * both runtimes: Deno's node:https honours `ca`, `cert`, `key` and `rejectUnauthorized` (checked on
 * Deno 2.9.5 against an mTLS server), which `Deno.createHttpClient` cannot do for `rejectUnauthorized`.
 */
import { readFile, readdir, stat } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import { join } from "node:path";

export interface ClientTlsFiles {
  /** PEM CA bundle file; wins over `caPath`. */
  readonly caCert?: string;
  /** Directory of PEM CA files. */
  readonly caPath?: string;
  readonly clientCert?: string;
  readonly clientKey?: string;
  /** False skips server certificate verification. @default true */
  readonly verify?: boolean;
}

export interface ClientTls {
  readonly ca?: readonly string[];
  readonly cert?: string;
  readonly key?: string;
  readonly verify: boolean;
}

export interface HttpClientRequest {
  readonly url: string;
  readonly method: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly tls?: ClientTls;
  /** @default 60000 */
  readonly timeoutMs?: number;
}

export interface HttpClientResponse {
  readonly status: number;
  /** The status line's reason phrase as the server sent it ("Not Found"). */
  readonly statusText: string;
  readonly text: string;
}

/** Reads the PEM files named by the CLI's TLS flags. */
export async function loadClientTls(files: ClientTlsFiles): Promise<ClientTls> {
  let ca: string[] | undefined;
  if (files.caCert) {
    ca = [await readFile(files.caCert, "utf8")];
  } else if (files.caPath) {
    ca = [];
    for (const name of (await readdir(files.caPath)).sort()) {
      const full = join(files.caPath, name);
      if ((await stat(full)).isFile()) ca.push(await readFile(full, "utf8"));
    }
  }
  return {
    verify: files.verify ?? true,
    ...(ca ? { ca } : {}),
    ...(files.clientCert ? { cert: await readFile(files.clientCert, "utf8") } : {}),
    ...(files.clientKey ? { key: await readFile(files.clientKey, "utf8") } : {}),
  };
}

async function requestNode(request: HttpClientRequest): Promise<HttpClientResponse> {
  const url = new URL(request.url);
  const secure = url.protocol === "https:";
  const module = secure ? await import("node:https") : await import("node:http");
  const tls = request.tls;
  const body = request.body;
  return await new Promise<HttpClientResponse>((resolve, reject) => {
    const req = module.request(url, {
      method: request.method,
      headers: { ...(request.headers ?? {}), ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}) },
      timeout: request.timeoutMs ?? 60_000,
      ...(secure && tls
        ? {
          rejectUnauthorized: tls.verify,
          ...(tls.ca ? { ca: [...tls.ca] } : {}),
          ...(tls.cert ? { cert: tls.cert } : {}),
          ...(tls.key ? { key: tls.key } : {}),
        }
        : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({
        status: res.statusCode ?? 0,
        // A server may send an empty reason phrase: then the standard one ("Not Found").
        statusText: res.statusMessage || STATUS_CODES[res.statusCode ?? 0] || "",
        text: Buffer.concat(chunks).toString("utf8"),
      }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url.origin} within ${request.timeoutMs ?? 60_000} ms`)));
    // Whether the TLS handshake had finished tells "the server refused my certificate" apart.
    let handshakeDone = false;
    req.on("socket", (socket) => socket.once("secureConnect", () => (handshakeDone = true)));
    req.on("error", (error) => reject(Object.assign(error, { tlsHandshakeDone: handshakeDone })));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Sends one request and reads the whole answer; transport failures reject. */
export function httpRequest(request: HttpClientRequest): Promise<HttpClientResponse> {
  return requestNode(request);
}

/**
 * True when `address` (an http:// URL) completes a TLS handshake: the daemon serves HTTPS there.
 * Certificates are not checked; only the protocol is asked.
 */
export async function servesTls(address: string, timeoutMs = 2_000): Promise<boolean> {
  const url = new URL(address);
  const { connect } = await import("node:tls");
  return await new Promise<boolean>((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 80), rejectUnauthorized: false, servername: "localhost" });
    const done = (tls: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(tls);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("secureConnect", () => done(true));
    socket.once("error", () => done(false));
  });
}
