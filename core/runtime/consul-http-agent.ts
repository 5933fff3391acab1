/**
 * @module The node:http(s) pieces the Consul client needs: a keep-alive (TLS) agent handed to the
 * npm `consul` package, and an EventEmitter cancel context bridging an AbortSignal to papi.
 */
import { EventEmitter, setMaxListeners } from "node:events";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";

export interface ConsulHttpAgentOptions {
  readonly secure: boolean;
  readonly keepAlive: boolean;
  readonly keepAliveMsecs?: number;
  /** Idle sockets kept per host (CTS `max_idle_conns_per_host`). */
  readonly maxFreeSockets?: number;
  /**
   * Idle keep-alive sockets are closed after this (CTS `idle_conn_timeout`, 5 s), so a socket the
   * server already dropped is rarely reused. Requests in flight use their own papi timeout instead.
   */
  readonly idleTimeoutMs?: number;
  /** PEM bundles trusted in addition to nothing else (Node replaces the default CAs when `ca` is set). */
  readonly ca?: readonly string[];
  readonly cert?: string;
  readonly key?: string;
  readonly servername?: string;
  /** False skips certificate verification (CTS `tls.verify = false`). */
  readonly rejectUnauthorized?: boolean;
}

export interface ConsulHttpAgent {
  /** Opaque: passed as `agent` to the `consul` constructor. */
  readonly agent: unknown;
  /** How many sockets are open (in use + idle), for status output and benches. */
  socketCount(): number;
  destroy(): void;
}

export function createConsulHttpAgent(options: ConsulHttpAgentOptions): ConsulHttpAgent {
  const common = {
    keepAlive: options.keepAlive,
    ...(options.keepAliveMsecs !== undefined ? { keepAliveMsecs: options.keepAliveMsecs } : {}),
    ...(options.maxFreeSockets !== undefined ? { maxFreeSockets: options.maxFreeSockets } : {}),
    ...(options.idleTimeoutMs ? { timeout: options.idleTimeoutMs } : {}),
  };
  const agent = options.secure
    ? new HttpsAgent({
      ...common,
      ...(options.ca && options.ca.length > 0 ? { ca: [...options.ca] } : {}),
      ...(options.cert ? { cert: options.cert } : {}),
      ...(options.key ? { key: options.key } : {}),
      ...(options.servername ? { servername: options.servername } : {}),
      rejectUnauthorized: options.rejectUnauthorized ?? true,
    })
    : new HttpAgent(common);
  const count = (sockets: NodeJS.ReadOnlyDict<unknown[]> | undefined): number =>
    Object.values(sockets ?? {}).reduce((sum: number, list) => sum + (list?.length ?? 0), 0);
  return {
    agent,
    socketCount: () => count(agent.sockets) + count(agent.freeSockets),
    destroy: () => agent.destroy(),
  };
}

/** papi cancels a request when its `ctx` EventEmitter emits "cancel". */
export interface CancelContext {
  readonly ctx: unknown;
  /** Detaches from the signal; call when the request settles so long-lived signals do not pile up listeners. */
  release(): void;
}

export function createCancelContext(signal: AbortSignal | undefined): CancelContext {
  if (!signal) return { ctx: undefined, release: () => {} };
  const ctx = new EventEmitter();
  const onAbort = (): void => {
    ctx.emit("cancel");
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return { ctx, release: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * Many watches legitimately share one signal (the kernel's stop signal), each adding an abort
 * listener; lift Node's leak warning (10 listeners) for such signals.
 */
export function allowManyAbortListeners(signal: AbortSignal): void {
  try {
    setMaxListeners(0, signal);
  } catch {
    // Runtimes without the warning have nothing to lift.
  }
}
