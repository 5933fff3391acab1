/**
 * @module The kernel's HttpClientFactory over node:http(s): one keep-alive agent per client, so the
 * TLS settings (CA, client certificate, server name, verify) apply to every request it sends. Deno's
 * node:https honours the same options (see https-client.ts).
 */
import { Buffer } from "node:buffer";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type {
  HttpClient, HttpClientFactory, HttpClientRequest, HttpClientResponse, HttpClientTls,
} from "../plugin-api/mod.ts";
import { allowManyAbortListeners, createCancelContext, createConsulHttpAgent } from "./consul-http-agent.ts";

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function createClient(tls: HttpClientTls | undefined): HttpClient {
  const plain = new HttpAgent({ keepAlive: true });
  const secure = new HttpsAgent({
    keepAlive: true,
    rejectUnauthorized: tls?.verify ?? true,
    ...(tls?.ca && tls.ca.length > 0 ? { ca: [...tls.ca] } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
    ...(tls?.serverName ? { servername: tls.serverName } : {}),
  });
  return {
    request(request: HttpClientRequest): Promise<HttpClientResponse> {
      const url = new URL(request.url);
      const isHttps = url.protocol === "https:";
      const send = isHttps ? httpsRequest : httpRequest;
      const body = request.body === undefined
        ? undefined
        : typeof request.body === "string" ? Buffer.from(request.body, "utf8") : Buffer.from(request.body);
      const timeoutMs = request.timeoutMs ?? 60_000;
      return new Promise<HttpClientResponse>((resolve, reject) => {
        if (request.signal?.aborted) {
          reject(request.signal.reason ?? new Error("aborted"));
          return;
        }
        const req = send(url, {
          method: request.method,
          agent: isHttps ? secure : plain,
          headers: { ...(request.headers ?? {}), ...(body !== undefined ? { "Content-Length": String(body.length) } : {}) },
          timeout: timeoutMs,
          ...(isHttps && tls?.serverName ? { servername: tls.serverName } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
        }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const joined = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: headersOf(res.headers),
              body: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength),
            });
          });
          res.on("error", reject);
        });
        req.on("timeout", () => req.destroy(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)));
        req.on("error", reject);
        if (body !== undefined) req.write(body);
        req.end();
      });
    },
    close() {
      plain.destroy();
      secure.destroy();
    },
  };
}

export function createHttpClientFactory(): HttpClientFactory {
  return {
    create: (options) => createClient(options?.tls),
    createAgent: createConsulHttpAgent,
    cancelContext: createCancelContext,
    allowManyAbortListeners,
  };
}

