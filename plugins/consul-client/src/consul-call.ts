/** @module One non-retried call for the typed methods: maps failures to CtsError and feeds connection state. */
import { isTransientAnswer, responseError, transportError } from "./consul-error.ts";
import type { ConnectionMonitor } from "./connection-monitor.ts";
import { type ConsulRequest, type ConsulResponse, type ConsulTransport, ConsulTransportError } from "./consul-transport.ts";

const CALL_TIMEOUT_MS = 60_000;

export class ConsulCall {
  readonly #transport: ConsulTransport;
  readonly #monitor: ConnectionMonitor;

  constructor(transport: ConsulTransport, monitor: ConnectionMonitor) {
    this.#transport = transport;
    this.#monitor = monitor;
  }

  /**
   * Sends `request`; 2xx and the statuses in `accept` are returned, anything else throws
   * `CtsError("CTS_ERR_CONSUL", "Cannot <action>: <status> <Consul's text>")`.
   */
  async send(action: string, request: ConsulRequest, accept: readonly number[] = []): Promise<ConsulResponse> {
    const redact = this.#transport.redact.bind(this.#transport);
    let response: ConsulResponse;
    try {
      response = await this.#transport.send({ timeoutMs: CALL_TIMEOUT_MS, ...request });
    } catch (error) {
      if (request.signal?.aborted || !(error instanceof ConsulTransportError)) throw error;
      const failure = transportError(action, error, redact);
      this.#monitor.failed(failure.message, { path: redact(request.path) });
      throw failure;
    }
    if (isTransientAnswer(response.status, response.text)) {
      const failure = responseError(action, response, redact);
      this.#monitor.failed(failure.message, { path: redact(request.path) });
      throw failure;
    }
    this.#monitor.succeeded();
    if ((response.status >= 200 && response.status < 300) || accept.includes(response.status)) return response;
    throw responseError(action, response, redact);
  }
}
