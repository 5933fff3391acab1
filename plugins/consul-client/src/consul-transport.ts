/**
 * @module One HTTP exchange with Consul through papi (the request layer of the npm `consul`
 * package, built for API clients): raw status, headers and body bytes, AbortSignal cancellation,
 * and errors free of secrets.
 */
import { Client, type PapiResponse } from "papi";
import type { CancelContext, ConsulCredentials } from "../../../core/plugin-api/mod.ts";

export interface ConsulRequest {
  readonly method: "GET" | "PUT" | "DELETE";
  /** Full path from the server root, already percent-encoded, e.g. `/v1/kv/a/b`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** A string is sent as text/plain (KV values); anything else as JSON. */
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface ConsulResponse {
  readonly status: number;
  /** Header lookup by lower-case name. */
  header(name: string): string | undefined;
  readonly text: string;
}

/** The request did not produce an HTTP answer (refused, reset, timed out). */
export class ConsulTransportError extends Error {
  override readonly name = "ConsulTransportError";
}

/**
 * A papi client for Consul, made as papi documents: a subclass that sends through `_request`. (The
 * `consul` package is such a subclass too, but keeps its request method to itself.)
 */
class ConsulHttpClient extends Client {
  send(request: Record<string, unknown>): Promise<PapiResponse> {
    return this._request(request);
  }
}

export interface ConsulTransportOptions {
  readonly baseUrl: string;
  /** Opaque node http(s) agent from the kernel's `HttpClientFactory.createAgent`. */
  readonly agent: unknown;
  /** The kernel's `HttpClientFactory.cancelContext`: papi cancels on an EventEmitter, not a signal. */
  readonly cancelContext: (signal: AbortSignal | undefined) => CancelContext;
  /** The token and basic auth each request carries, read per request (they may rotate). */
  readonly credentials: TransportCredentials;
  /** Consul Enterprise namespace (`ns`) sent with every KV, session and transaction request. */
  readonly namespace?: string;
}

/** What the transport reads of its credentials (credential-source.ts). */
export interface TransportCredentials {
  current(): ConsulCredentials;
  /** Every value used so far, old ones included: none may appear in a message. */
  secrets(): readonly string[];
  /** Aborted when the credentials change. */
  readonly changed: AbortSignal;
}

/** The endpoints a namespace applies to: KV, sessions and transactions (the storage of CTS's HA cluster). */
const NAMESPACED_PATH = /^\/v1\/(kv\/|session\/|txn$)/;

export class ConsulTransport {
  readonly #client: ConsulHttpClient;
  readonly #cancelContext: ConsulTransportOptions["cancelContext"];
  readonly #options: ConsulTransportOptions;

  constructor(options: ConsulTransportOptions) {
    this.#options = options;
    this.#cancelContext = options.cancelContext;
    // `name` prefixes papi's error messages ("consul: ..."), which describe() strips again.
    this.#client = new ConsulHttpClient({ baseUrl: options.baseUrl, agent: options.agent, name: "consul" });
  }

  /** Aborted when the credentials change: a request parked with the old ones is asked again. */
  get credentialsChanged(): AbortSignal {
    return this.#options.credentials.changed;
  }

  /** The headers of the credentials in use now. */
  #credentialHeaders(): Record<string, string> {
    const { token, auth } = this.#options.credentials.current();
    const headers: Record<string, string> = {};
    if (token) headers["x-consul-token"] = token;
    // CTS sends basic auth only when `auth.enabled` (which defaults to true when a username or password is set).
    if (auth.enabled) headers["authorization"] = `Basic ${base64Utf8(`${auth.username}:${auth.password}`)}`;
    return headers;
  }

  /** The same transport (connection pool, credentials) with KV, session and transaction requests in `namespace`. */
  inNamespace(namespace: string): ConsulTransport {
    return new ConsulTransport({ ...this.#options, namespace });
  }

  /** Replaces every secret this transport knows with `<redacted>`; used on every outgoing message. */
  redact(text: string): string {
    let out = text;
    const basic = this.#credentialHeaders()["authorization"];
    for (const secret of [...this.#options.credentials.secrets(), ...(basic ? [basic] : [])]) {
      if (secret.length < 3) continue;
      out = out.split(secret).join("<redacted>");
    }
    return out;
  }

  /** Sends one request; any HTTP status is returned, transport failures throw. Abort rejects with the signal's reason. */
  async send(request: ConsulRequest): Promise<ConsulResponse> {
    request.signal?.throwIfAborted();
    const cancel = this.#cancelContext(request.signal);
    const opts: Record<string, unknown> = {
      method: request.method,
      // papi expands `{name}` placeholders in paths; passing the whole path as one unencoded
      // param keeps keys such as `a/{b}` intact.
      path: "{path}",
      params: { path: { encode: false, toString: () => request.path } },
      query: { ...request.query, ...(this.#options.namespace && NAMESPACED_PATH.test(request.path) ? { ns: this.#options.namespace } : {}) },
      buffer: true,
      headers: this.#credentialHeaders(),
      ...(cancel.ctx ? { ctx: cancel.ctx } : {}),
      ...(request.timeoutMs ? { timeout: request.timeoutMs } : {}),
    };
    if (request.body !== undefined) {
      opts.type = typeof request.body === "string" ? "text" : "json";
      opts.body = request.body;
    }
    try {
      return toResponse(await this.#client.send(opts));
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      const response = (error as { isResponse?: boolean; response?: PapiResponse }).response;
      if ((error as { isResponse?: boolean }).isResponse && response) return toResponse(response);
      throw new ConsulTransportError(this.redact(describe(error)), { cause: error });
    } finally {
      cancel.release();
    }
  }
}

/** btoa only takes Latin-1; credentials may hold any character. */
function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function toResponse(res: PapiResponse): ConsulResponse {
  const body = res.body;
  const text = body === undefined ? "" : typeof body === "string" ? body : new TextDecoder().decode(body);
  return {
    status: res.statusCode,
    header(name) {
      const value = res.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    text,
  };
}

/** papi prefixes messages with "consul: "; the code (ECONNREFUSED ...) is the useful part. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stripped = message.replace(/^consul: /, "");
  const code = (error as { code?: unknown }).code;
  if (!stripped && typeof code === "string") return code;
  return stripped || "request failed";
}
