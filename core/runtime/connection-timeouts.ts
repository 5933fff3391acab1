/**
 * @module Go's `http.Transport` limits on a new connection, for Node agents: the connection must be
 * established within `dial_timeout` and, over TLS, the handshake must complete within
 * `tls_handshake_timeout` after that (a server that accepts and never answers TLS is given up on
 * instead of waited on). Only new connections are timed; a reused keep-alive socket has neither step.
 */
import { Agent as HttpAgent, type AgentOptions as HttpAgentOptions } from "node:http";
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from "node:https";
import type { Duplex } from "node:stream";

export interface ConnectionTimeouts {
  /** CTS `dial_timeout`; 0 or absent: the operating system's limit. */
  readonly connectMs?: number;
  /** CTS `tls_handshake_timeout`; 0 or absent: no limit. */
  readonly tlsHandshakeMs?: number;
}

type CreateConnection = (options: Record<string, unknown>, callback?: (err: Error | null, stream: Duplex) => void) => Duplex | null | undefined;

/** An http(s) agent whose new sockets fail with a named error when a step takes too long. */
export function timedAgent(secure: true, options: HttpsAgentOptions, timeouts: ConnectionTimeouts): HttpsAgent;
export function timedAgent(secure: false, options: HttpAgentOptions, timeouts: ConnectionTimeouts): HttpAgent;
export function timedAgent(secure: boolean, options: HttpsAgentOptions, timeouts: ConnectionTimeouts): HttpAgent {
  const agent = secure ? new HttpsAgent(options) : new HttpAgent(options);
  if (!timeouts.connectMs && !timeouts.tlsHandshakeMs) return agent;
  const create = (agent.createConnection as CreateConnection).bind(agent);
  (agent as unknown as { createConnection: CreateConnection }).createConnection = (connectOptions, callback) => {
    const socket = create(connectOptions, callback);
    if (socket) armTimeouts(socket, timeouts, secure, `${String(connectOptions.host ?? "localhost")}:${String(connectOptions.port ?? "")}`);
    return socket;
  };
  return agent;
}

function armTimeouts(socket: Duplex, timeouts: ConnectionTimeouts, secure: boolean, target: string): void {
  const timers: ReturnType<typeof setTimeout>[] = [];
  const clear = (): void => {
    for (const timer of timers.splice(0)) clearTimeout(timer);
  };
  const fail = (message: string) => () => {
    clear();
    socket.destroy(Object.assign(new Error(message), { code: "ETIMEDOUT" }));
  };
  if (timeouts.connectMs) {
    timers.push(setTimeout(fail(`no connection to ${target} within ${seconds(timeouts.connectMs)} (dial_timeout)`), timeouts.connectMs));
  }
  socket.once("connect", () => {
    clear();
    if (secure && timeouts.tlsHandshakeMs) {
      timers.push(setTimeout(
        fail(`TLS handshake timeout: ${target} accepted the connection but did not complete the TLS handshake within ${seconds(timeouts.tlsHandshakeMs)} (tls_handshake_timeout)`),
        timeouts.tlsHandshakeMs,
      ));
    }
  });
  socket.once("secureConnect", clear);
  socket.once("close", clear);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
