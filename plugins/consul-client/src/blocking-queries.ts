/**
 * @module The blocking-query primitive behind `query` and `watch`: X-Consul-Index bookkeeping
 * (reset when it goes backwards or is missing), 100 ms fetch spacing, and retries with capped
 * backoff that never give up (CTS stops after ~8 retries / ~10 min; users asked for forever).
 */
import type {
  BlockingOptions, ConsulQuery, ConsulQueryResult, CtsError, Logger,
} from "../../../core/plugin-api/mod.ts";
import { backoffDelay, type BackoffPolicy, retryAfterMs, sleep } from "./backoff.ts";
import { type ConnectionMonitor } from "./connection-monitor.ts";
import { isTransientAnswer, responseError, transportError } from "./consul-error.ts";
import { type ConsulTransport, ConsulTransportError } from "./consul-transport.ts";
import { type FetchSpacer } from "./fetch-spacer.ts";
import { durationMs } from "./go-duration.ts";
import { type ParkedRequest, parkedRequest } from "./parked-request.ts";

/** Consul's own default and maximum for `wait`. */
const DEFAULT_WAIT_MS = 300_000;
const MAX_WAIT_MS = 600_000;
/** Slack over `wait + wait/16` (Consul's jitter) before a silent connection counts as dead. */
const BLOCKING_SLACK_MS = 15_000;
const NON_BLOCKING_TIMEOUT_MS = 60_000;
/**
 * Each open blocking query holds one HTTP/1.1 connection, and a Consul agent accepts 200 per
 * client by default (`limits.http_max_conns_per_client`); CTS users hit this as resets (CTS#146).
 */
const CONNECTION_WARN_AT = 180;

type FetchOutcome =
  | { readonly kind: "ok"; readonly data: unknown; readonly index: number }
  /** Worth retrying: transport failure, 429, a 5xx other than the permanent texts, or an unreadable body. */
  | { readonly kind: "transient"; readonly error: CtsError; readonly retryAfterMs?: number }
  /** A permanent error of the query (consul-error.ts `isPermanentAnswer`): retrying will not help. */
  | { readonly kind: "rejected"; readonly error: CtsError }
  /** The credentials rotated while it was parked: ask again at once, at the same index. */
  | { readonly kind: "reissue" };

export interface BlockingQueriesDeps {
  readonly transport: ConsulTransport;
  readonly monitor: ConnectionMonitor;
  readonly spacer: FetchSpacer;
  readonly logger: Logger;
  readonly backoff: BackoffPolicy;
  /** The kernel's `HttpClientFactory.allowManyAbortListeners`: watches share long-lived signals. */
  readonly allowManyAbortListeners: (signal: AbortSignal) => void;
}

/** `X-Consul-Index` as a number; 0 when absent or not a positive integer. */
export function parseConsulIndex(header: string | undefined): number {
  if (!header || !/^\d+$/.test(header.trim())) return 0;
  const value = Number(header.trim());
  return Number.isFinite(value) ? value : 0;
}

export class BlockingQueries {
  readonly #deps: BlockingQueriesDeps;
  #openBlocking = 0;
  #warnedConnections = false;

  constructor(deps: BlockingQueriesDeps) {
    this.#deps = deps;
  }

  async query(query: ConsulQuery, options: BlockingOptions = {}): Promise<ConsulQueryResult> {
    const { monitor, spacer, backoff } = this.#deps;
    const retry = options.retry ?? true;
    if (options.signal) this.#deps.allowManyAbortListeners(options.signal);
    let index = options.index ?? 0;
    for (let attempt = 0; ; attempt++) {
      await spacer.wait(query.key, options.signal);
      const outcome = await this.#fetch(query, index, options.wait, options.signal);
      if (outcome.kind === "reissue") {
        attempt--;
        continue;
      }
      if (outcome.kind === "ok") {
        // A smaller index means the server's history was replaced (restore, restart, reaped
        // tombstones): the caller's index is meaningless there, so answer with fresh data.
        if (index > 0 && outcome.index > 0 && outcome.index < index) {
          index = 0;
          continue;
        }
        return Object.freeze({ data: outcome.data, index: outcome.index });
      }
      if (outcome.kind === "rejected" || !retry) {
        if (outcome.kind === "transient") monitor.failed(outcome.error.message, { path: this.#safeKey(query) });
        throw outcome.error;
      }
      const delay = Math.max(backoffDelay(attempt, backoff), outcome.retryAfterMs ?? 0);
      monitor.failed(outcome.error.message, { path: this.#safeKey(query), retryInMs: delay });
      await sleep(delay, options.signal);
    }
  }

  async watch(
    query: ConsulQuery,
    onResult: (result: ConsulQueryResult) => void,
    signal: AbortSignal,
    onError?: (error: CtsError) => void,
  ): Promise<void> {
    this.#deps.allowManyAbortListeners(signal);
    try {
      await this.#watchLoop(query, onResult, signal, onError);
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
  }

  async #watchLoop(
    query: ConsulQuery,
    onResult: (result: ConsulQueryResult) => void,
    signal: AbortSignal,
    onError: ((error: CtsError) => void) | undefined,
  ) {
    const { monitor, spacer, backoff, logger } = this.#deps;
    const path = this.#safeKey(query);
    let index = 0;
    let delivered: number | undefined;
    let failures = 0;
    let lastRejection: string | undefined;
    const deliver = (data: unknown, at: number): void => {
      delivered = at;
      try {
        onResult(Object.freeze({ data, index: at }));
      } catch (error) {
        logger.error("Consul watch listener failed", { path, error: error instanceof Error ? error.message : String(error) });
      }
    };
    while (!signal.aborted) {
      await spacer.wait(query.key, signal);
      const startedAt = Date.now();
      const outcome = await this.#fetch(query, index, undefined, signal);
      if (outcome.kind === "reissue") {
        logger.debug("Consul credentials rotated, asking the watched query again at the same index", { path, index });
        continue;
      }
      if (outcome.kind === "ok") {
        lastRejection = undefined;
        if (outcome.index === 0) {
          // No usable index: the endpoint cannot block, so poll it gently instead of spinning.
          if (delivered === undefined) deliver(outcome.data, 0);
          index = 0;
          const delay = backoffDelay(failures++, backoff);
          logger.debug("Consul answered without X-Consul-Index, polling", { path, retry_in_ms: delay });
          await sleep(delay, signal);
          continue;
        }
        failures = 0;
        if (index > 0 && outcome.index < index) {
          logger.debug("Consul index went backwards, resetting", { path, from: index, to: outcome.index });
          index = 0;
          continue;
        }
        const unchangedEarly = index > 0 && outcome.index === index &&
          Date.now() - startedAt < DEFAULT_WAIT_MS * 0.9;
        index = outcome.index;
        if (delivered !== index) deliver(outcome.data, index);
        if (unchangedEarly) {
          // A server shutting down answers parked queries early with the old index; the next
          // request may reach a successor with a smaller history, which would park it for the
          // whole wait before the reset rule could apply. One non-blocking read settles it.
          logger.debug("Consul answered early without a change, re-reading once", { path, index });
          index = 0;
        }
        continue;
      }
      const retryAfter = outcome.kind === "transient" ? outcome.retryAfterMs ?? 0 : 0;
      const delay = Math.max(backoffDelay(failures++, backoff), retryAfter);
      if (outcome.kind === "transient") {
        monitor.failed(outcome.error.message, { path, retryInMs: delay });
      } else if (outcome.error.message !== lastRejection) {
        lastRejection = outcome.error.message;
        logger.warn("Consul rejected a watched query, retrying", { path, error: outcome.error.message, retry_in_ms: delay });
        // Once per distinct rejection: the owner decides (fail a -once run, mark the task errored);
        // the watch itself goes on slowly, so a fix on Consul's side (an ACL, a joined datacenter) heals it.
        try {
          onError?.(outcome.error);
        } catch (error) {
          logger.error("Consul watch error listener failed", { path, error: error instanceof Error ? error.message : String(error) });
        }
      } else {
        logger.debug("Consul still rejects a watched query, retrying", { path, retry_in_ms: delay });
      }
      // After any failure resync from scratch: the server may have restarted with other history;
      // an unchanged index is not delivered again, so this costs one cheap read.
      index = 0;
      await sleep(delay, signal);
    }
  }

  /** One GET; aborts reject with the signal's reason, everything else becomes an outcome. */
  async #fetch(query: ConsulQuery, index: number, wait: string | undefined, signal?: AbortSignal): Promise<FetchOutcome> {
    const { transport, monitor } = this.#deps;
    const action = `query ${this.#safeKey(query)}`;
    const params: Record<string, string> = { ...query.params };
    let timeoutMs = NON_BLOCKING_TIMEOUT_MS;
    if (index > 0) {
      params.index = String(index);
      if (wait) params.wait = wait;
      const waitMs = Math.min(durationMs(wait) || DEFAULT_WAIT_MS, MAX_WAIT_MS);
      timeoutMs = waitMs + waitMs / 16 + BLOCKING_SLACK_MS;
    }
    let response;
    // A parked request is asked again when the credentials rotate (parked-request.ts).
    let parked: ParkedRequest | undefined;
    if (index > 0) {
      this.#blockingOpened();
      this.#deps.allowManyAbortListeners(transport.credentialsChanged);
      parked = parkedRequest(signal, transport.credentialsChanged);
    }
    try {
      response = await transport.send({ method: "GET", path: query.path, query: params, signal: parked?.signal ?? signal, timeoutMs });
    } catch (error) {
      if (parked?.rotated()) return { kind: "reissue" };
      if (signal?.aborted || !(error instanceof ConsulTransportError)) throw error;
      return { kind: "transient", error: transportError(action, error, transport.redact.bind(transport)) };
    } finally {
      parked?.release();
      if (index > 0) this.#openBlocking--;
    }
    const redact = transport.redact.bind(transport);
    // 429 and 5xx from a restarting Consul keep an outage going; any other answer proves Consul is reachable.
    const transient = isTransientAnswer(response.status, response.text);
    if (!transient) monitor.succeeded();
    if (response.status === 200 || response.status === 404) {
      let data: unknown;
      if (response.status === 200 && response.text.trim() !== "") {
        try {
          data = JSON.parse(response.text);
        } catch {
          return { kind: "transient", error: transportError(action, new Error("response is not JSON"), redact) };
        }
      }
      return { kind: "ok", data, index: parseConsulIndex(response.header("x-consul-index")) };
    }
    const error = responseError(action, response, redact);
    if (!transient) return { kind: "rejected", error };
    const retryAfter = response.status === 429 ? retryAfterMs(response.header("retry-after")) : undefined;
    return { kind: "transient", error, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
  }

  #blockingOpened(): void {
    this.#openBlocking++;
    if (this.#openBlocking >= CONNECTION_WARN_AT && !this.#warnedConnections) {
      this.#warnedConnections = true;
      this.#deps.logger.warn(
        "many blocking queries open to Consul, one connection each; raise limits.http_max_conns_per_client (default 200) on the agent if connections are reset",
        { open: this.#openBlocking },
      );
    } else if (this.#openBlocking < CONNECTION_WARN_AT / 2) {
      this.#warnedConnections = false;
    }
  }

  #safeKey(query: ConsulQuery): string {
    return this.#deps.transport.redact(query.key);
  }
}
