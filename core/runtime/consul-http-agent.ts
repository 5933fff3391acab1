/**
 * @module The node:http(s) pieces the Consul client needs, served through HttpClientFactory: a
 * keep-alive (TLS) agent handed to the npm `consul` package, and an EventEmitter cancel context
 * bridging an AbortSignal to papi.
 */
import { EventEmitter, setMaxListeners } from "node:events";
import type { CancelContext, HttpAgent as AgentHandle, HttpAgentOptions } from "../plugin-api/mod.ts";
import { timedAgent } from "./connection-timeouts.ts";

export function createConsulHttpAgent(options: HttpAgentOptions): AgentHandle {
  const common = {
    keepAlive: options.keepAlive,
    ...(options.keepAliveMsecs !== undefined ? { keepAliveMsecs: options.keepAliveMsecs } : {}),
    ...(options.maxFreeSockets !== undefined ? { maxFreeSockets: options.maxFreeSockets } : {}),
    ...(options.idleTimeoutMs ? { timeout: options.idleTimeoutMs } : {}),
  };
  const timeouts = { connectMs: options.connectTimeoutMs, tlsHandshakeMs: options.tlsHandshakeTimeoutMs };
  const agent = options.secure
    ? timedAgent(true, {
      ...common,
      ...(options.ca && options.ca.length > 0 ? { ca: [...options.ca] } : {}),
      ...(options.cert ? { cert: options.cert } : {}),
      ...(options.key ? { key: options.key } : {}),
      ...(options.servername ? { servername: options.servername } : {}),
      rejectUnauthorized: options.rejectUnauthorized ?? true,
    }, timeouts)
    : timedAgent(false, common, timeouts);
  const count = (sockets: NodeJS.ReadOnlyDict<unknown[]> | undefined): number =>
    Object.values(sockets ?? {}).reduce((sum: number, list) => sum + (list?.length ?? 0), 0);
  return {
    agent,
    socketCount: () => count(agent.sockets) + count(agent.freeSockets),
    destroy: () => agent.destroy(),
  };
}

/** papi cancels a request when its `ctx` EventEmitter emits "cancel". */
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
