/**
 * @module Outbound HTTP(S) for plugins: one client per set of TLS settings (CA bundle, client
 * certificate, server name, verify), binary bodies and response headers. `fetch` cannot take a CA or
 * a client certificate on Node, so plugins that talk to TLS services they are configured for (HCP
 * Terraform, Vault, ...) get their clients from the kernel instead.
 */

export interface HttpClientTls {
  /** PEM CA certificates; when set they replace the system roots. */
  readonly ca?: readonly string[];
  /** PEM client certificate and key (mutual TLS). */
  readonly cert?: string;
  readonly key?: string;
  /** SNI and the name the certificate must carry, when it differs from the URL's host. */
  readonly serverName?: string;
  /** False skips certificate verification. @default true */
  readonly verify?: boolean;
}

export interface HttpClientRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** @default 60000 */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface HttpClientResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface HttpClient {
  /** Resolves on any status; rejects on transport failures, timeouts and aborts. */
  request(request: HttpClientRequest): Promise<HttpClientResponse>;
  /** Closes idle keep-alive connections. */
  close(): void;
}

/**
 * A keep-alive connection pool for npm HTTP libraries built on Node's http module that take an
 * `agent` (the `consul` package). Its fields mirror CTS's Consul `transport` and `tls` blocks.
 */
export interface HttpAgentOptions {
  readonly secure: boolean;
  readonly keepAlive: boolean;
  readonly keepAliveMsecs?: number;
  /** Idle sockets kept per host (CTS `max_idle_conns_per_host`). */
  readonly maxFreeSockets?: number;
  /**
   * Idle keep-alive sockets are closed after this (CTS `idle_conn_timeout`, 5 s), so a socket the
   * server already dropped is rarely reused. Requests in flight use their own timeout instead.
   */
  readonly idleTimeoutMs?: number;
  /** PEM bundles trusted instead of the system roots. */
  readonly ca?: readonly string[];
  readonly cert?: string;
  readonly key?: string;
  readonly servername?: string;
  /** False skips certificate verification (CTS `tls.verify = false`). */
  readonly rejectUnauthorized?: boolean;
  /**
   * A new connection that is not established within this fails with an
   * error naming CTS's `dial_timeout` (0 or absent: the operating system's limit).
   */
  readonly connectTimeoutMs?: number;
  /**
   * A TLS handshake that does not complete within this after the connection
   * is established fails with an error naming CTS's `tls_handshake_timeout` (0 or absent: no limit).
   */
  readonly tlsHandshakeTimeoutMs?: number;
}

export interface HttpAgent {
  /** Opaque: passed as `agent` to the library. */
  readonly agent: unknown;
  /** How many sockets are open (in use + idle), for status output and benches. */
  socketCount(): number;
  destroy(): void;
}

/** The event emitter such libraries cancel a request on (it emits "cancel" when the signal aborts). */
export interface CancelContext {
  /** Opaque: passed as the library's `ctx`; undefined when there is no signal. */
  readonly ctx: unknown;
  /** Detaches from the signal; call when the request settles so long-lived signals do not pile up listeners. */
  release(): void;
}

export interface HttpClientFactory {
  create(options?: { readonly tls?: HttpClientTls }): HttpClient;
  /** A Node-style keep-alive agent for an npm HTTP library; the runtime owns the sockets. */
  createAgent(options: HttpAgentOptions): HttpAgent;
  /** Bridges `signal` to the EventEmitter-based cancellation those libraries take. */
  cancelContext(signal: AbortSignal | undefined): CancelContext;
  /**
   * Many requests may share one signal (the kernel's stop signal), each adding an abort listener;
   * this lifts the runtime's listener-leak warning for such a signal.
   */
  allowManyAbortListeners(signal: AbortSignal): void;
}
