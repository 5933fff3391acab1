/**
 * @module A client's `tls {}` and `transport {}` blocks (Consul's, Vault's) as the options of the
 * HTTP connection pool the kernel makes (`HttpClientFactory.createAgent`), with the meanings Go's
 * `http.Transport` gives them in CTS: every transport field is honoured, and the TLS files, server
 * name and `verify` apply only when `tls.enabled` (an `https://` address without it still uses TLS,
 * verified against the system roots).
 */
import type { TlsFilesConfig } from "./config.ts";
import { parseGoDuration } from "./go-duration.ts";
import type { HttpAgentOptions } from "./services/http-client.ts";
import type { TlsMaterial } from "./tls-files.ts";

/** CTS's defaults (config/transport.go). */
const DEFAULTS = {
  dial_keep_alive: 30_000, dial_timeout: 30_000, idle_conn_timeout: 5_000, max_idle_conns: 0, max_idle_conns_per_host: 100,
  tls_handshake_timeout: 10_000,
} as const;

/** Go's `http.DefaultMaxIdleConnsPerHost`, which a `max_idle_conns_per_host` of 0 stands for. */
const GO_IDLE_PER_HOST = 2;

export function clientAgentOptions(
  secure: boolean,
  tls: TlsFilesConfig,
  transport: Readonly<Record<string, unknown>> | undefined,
  material: TlsMaterial | undefined,
): HttpAgentOptions {
  const field = transport ?? {};
  const ms = (name: keyof typeof DEFAULTS): number => durationMs(field[name]) ?? DEFAULTS[name];
  const count = (name: keyof typeof DEFAULTS): number => {
    const value = field[name];
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : DEFAULTS[name];
  };
  // The pool talks to one host, so the total idle limit (0: none) caps the per-host one.
  const perHost = count("max_idle_conns_per_host") || GO_IDLE_PER_HOST;
  const total = count("max_idle_conns");
  const useTls = tls.enabled && material !== undefined;
  return {
    secure,
    keepAlive: field["disable_keep_alives"] !== true,
    keepAliveMsecs: ms("dial_keep_alive"),
    idleTimeoutMs: ms("idle_conn_timeout"),
    maxFreeSockets: total > 0 ? Math.min(perHost, total) : perHost,
    connectTimeoutMs: ms("dial_timeout"),
    tlsHandshakeTimeoutMs: ms("tls_handshake_timeout"),
    ...(useTls && material.ca.length > 0 ? { ca: material.ca } : {}),
    ...(useTls && material.cert ? { cert: material.cert } : {}),
    ...(useTls && material.key ? { key: material.key } : {}),
    ...(useTls && tls.server_name ? { servername: tls.server_name } : {}),
    rejectUnauthorized: useTls ? tls.verify : true,
  };
}

/** Milliseconds from the loader's numbers or Go duration text; undefined when neither. */
function durationMs(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const ms = parseGoDuration(value.trim());
  return ms !== undefined && ms >= 0 ? ms : undefined;
}
