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

export interface HttpClientFactory {
  create(options?: { readonly tls?: HttpClientTls }): HttpClient;
}
