/**
 * @module Tracks whether Consul is reachable and logs an outage once: WARN at start, DEBUG per
 * retry, INFO on recovery; the start and the end of an outage also go on the daemon's event bus.
 */
import type { ConsulConnectionState, DaemonEvents, Logger } from "../../../core/plugin-api/mod.ts";

export class ConnectionMonitor {
  #state: ConsulConnectionState;
  readonly #logger: Logger;
  readonly #address: string;
  readonly #events: DaemonEvents | undefined;

  constructor(logger: Logger, address: string, events?: DaemonEvents) {
    this.#logger = logger;
    this.#address = address;
    this.#events = events;
    this.#state = Object.freeze({ healthy: true, since: Date.now(), failures: 0 });
  }

  get state(): ConsulConnectionState {
    return this.#state;
  }

  /** Any HTTP answer from Consul proves the connection works. */
  succeeded(): void {
    if (this.#state.healthy) return;
    const outageMs = Date.now() - this.#state.since;
    const failures = this.#state.failures;
    this.#state = Object.freeze({ healthy: true, since: Date.now(), failures: 0 });
    this.#logger.info("connection to Consul restored", { address: this.#address, outage_ms: outageMs, failures });
    this.#events?.publish({ type: "consul.connection", state: "restored" });
  }

  /** `message` must already be redacted. `retryInMs` is set when the caller will retry. */
  failed(message: string, context: { readonly path: string; readonly retryInMs?: number }): void {
    const fields = {
      address: this.#address,
      path: context.path,
      error: message,
      ...(context.retryInMs !== undefined ? { retry_in_ms: context.retryInMs } : {}),
    };
    if (this.#state.healthy) {
      this.#state = Object.freeze({ healthy: false, since: Date.now(), failures: 1, lastError: message });
      this.#logger.warn("cannot reach Consul, retrying until it is back", fields);
      this.#events?.publish({ type: "consul.connection", state: "lost", error: message });
      return;
    }
    this.#state = Object.freeze({ ...this.#state, failures: this.#state.failures + 1, lastError: message });
    this.#logger.debug("Consul still unreachable, retrying", { ...fields, failures: this.#state.failures });
  }
}
