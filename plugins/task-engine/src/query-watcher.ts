/**
 * @module The shared watcher pool: exactly one blocking query per distinct Consul query key,
 * however many tasks (and sources) subscribe to it.
 *
 * The first subscriber opens `consulClient.watch`; later subscribers get the cached latest
 * result at once; the last unsubscribe aborts the watch.
 */
import type {
  ConsulClient, ConsulQuery, ConsulQueryResult, Logger, QueryWatcher,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";

type Listener = (result: ConsulQueryResult) => void;
type ErrorListener = (error: Error) => void;

/** Pause before reopening a watch the client gave up on (it normally never does). */
const RESTART_DELAY_MS = 1000;

interface Watch {
  readonly query: ConsulQuery;
  readonly listeners: Set<Listener>;
  readonly errorListeners: Map<Listener, ErrorListener>;
  readonly abort: AbortController;
  latest?: ConsulQueryResult;
  /** The permanent error Consul answers the query with now; cleared by the next result. */
  error?: Error;
}

export interface QueryWatcherStats {
  /** Blocking queries currently open (one per distinct key). */
  readonly open: number;
  /** Subscriptions across all keys. */
  readonly subscribers: number;
}

export class SharedQueryWatcher implements QueryWatcher {
  readonly #client: ConsulClient;
  readonly #logger: Logger;
  readonly #watches = new Map<string, Watch>();

  constructor(client: ConsulClient, logger: Logger) {
    this.#client = client;
    this.#logger = logger;
  }

  subscribe(query: ConsulQuery, listener: Listener, onError?: ErrorListener): () => void {
    const watch = this.#watches.get(query.key) ?? this.#open(query);
    // A fresh function per subscription, so one listener subscribed twice counts twice.
    const entry: Listener = (result) => listener(result);
    watch.listeners.add(entry);
    if (onError) watch.errorListeners.set(entry, onError);
    const cached = watch.latest;
    const failing = watch.error;
    if (cached || failing) {
      queueMicrotask(() => {
        if (cached && watch.listeners.has(entry)) entry(cached);
        if (failing && watch.error === failing && watch.listeners.has(entry)) onError?.(failing);
      });
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      watch.listeners.delete(entry);
      watch.errorListeners.delete(entry);
      if (watch.listeners.size === 0 && this.#watches.get(query.key) === watch) {
        this.#watches.delete(query.key);
        watch.abort.abort();
      }
    };
  }

  stats(): QueryWatcherStats {
    let subscribers = 0;
    for (const watch of this.#watches.values()) subscribers += watch.listeners.size;
    return { open: this.#watches.size, subscribers };
  }

  /** Closes every blocking query (kernel stop). */
  close(): void {
    for (const watch of this.#watches.values()) watch.abort.abort();
    this.#watches.clear();
  }

  #open(query: ConsulQuery): Watch {
    const watch: Watch = { query, listeners: new Set(), errorListeners: new Map(), abort: new AbortController() };
    this.#watches.set(query.key, watch);
    this.#logger.debug("watching consul query", { query: query.key });
    const deliver = (result: ConsulQueryResult) => {
      watch.latest = result;
      delete watch.error;
      for (const listener of [...watch.listeners]) {
        try {
          listener(result);
        } catch (error) {
          this.#logger.error("query listener failed", { query: query.key, error: errorMessage(error) });
        }
      }
    };
    const failed = (error: Error) => {
      watch.error = error;
      for (const onError of [...watch.errorListeners.values()]) {
        try {
          onError(error);
        } catch (cause) {
          this.#logger.error("query error listener failed", { query: query.key, error: errorMessage(cause) });
        }
      }
    };
    this.#run(watch, deliver, failed);
    return watch;
  }

  /** Keeps the watch going: the client retries outages itself; should it still give up, start over. */
  #run(watch: Watch, deliver: Listener, failed: ErrorListener): void {
    const { query, abort } = watch;
    const ended = (error?: unknown) => {
      if (abort.signal.aborted || this.#watches.get(query.key) !== watch) return;
      this.#logger.error("consul watch ended, restarting it", { query: query.key, error: error === undefined ? "ended" : errorMessage(error) });
      const timer = setTimeout(() => this.#run(watch, deliver, failed), RESTART_DELAY_MS);
      abort.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    };
    this.#client.watch(query, deliver, abort.signal, failed).then(() => ended(), ended);
  }
}
