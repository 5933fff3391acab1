/**
 * @module The fan-out behind `GET /v1/events`: one subscription to the daemon's event bus, each
 * event framed once and queued on every connected client (a bounded `SseClientQueue` each).
 *
 * A new stream starts with `retry:`, then either the events the client missed (resume after
 * Last-Event-ID; every one the bus retains, 1000) or a `resync` event when they are no longer retained, then a `ready` event whose
 * id is the newest event's: a client that loads state after `ready` and applies events after it
 * misses nothing, and its EventSource resumes from there. Resume and live delivery cannot
 * interleave wrongly: the bus delivers synchronously, and `open` reads `since()` and joins the
 * fan-out in the same turn.
 */
import type { DaemonEvents, Logger, NumberedEvent } from "../../../core/plugin-api/mod.ts";
import { DEFAULT_SSE_LIMITS, SseClientQueue, type SseQueueLimits } from "./sse-client-queue.ts";
import { eventFrame, frame, HEARTBEAT_FRAME, retryFrame } from "./sse-frame.ts";

const utf8 = new TextEncoder();
const HEARTBEAT_BYTES = utf8.encode(HEARTBEAT_FRAME);

/** Comments on an idle stream this often keep proxies (and Node's own timeouts) from closing it. */
export const HEARTBEAT_MS = 15_000;

export interface EventStreamOptions {
  readonly limits?: SseQueueLimits;
  readonly heartbeatMs?: number;
  /** Streams open at once; `full` past it (config `api.max_event_streams`). @default 100 */
  readonly maxClients?: number;
}

export const DEFAULT_MAX_STREAMS = 100;

export class EventStreamHub {
  readonly #events: DaemonEvents;
  readonly #logger: Logger;
  readonly #limits: SseQueueLimits;
  readonly #heartbeatMs: number;
  readonly #maxClients: number;
  readonly #clients = new Set<SseClientQueue>();
  readonly #unsubscribe: () => void;
  #lastId: number;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(events: DaemonEvents, logger: Logger, options: EventStreamOptions = {}) {
    this.#events = events;
    this.#logger = logger;
    this.#limits = options.limits ?? DEFAULT_SSE_LIMITS;
    this.#heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.#maxClients = options.maxClients ?? DEFAULT_MAX_STREAMS;
    // Created at plugin init, long before the bus could have dropped event 1.
    this.#lastId = events.since(0)?.at(-1)?.id ?? 0;
    this.#unsubscribe = events.subscribe((event) => this.#deliver(event));
  }

  /** Connected clients (tests and benches). */
  get clientCount(): number {
    return this.#clients.size;
  }

  /** How many streams may be open at once. */
  get maxClients(): number {
    return this.#maxClients;
  }

  /** No room for another stream: each holds a connection and a queue, so their number is bounded. */
  get full(): boolean {
    return this.#clients.size >= this.#maxClients;
  }

  /**
   * A new stream. `after` is the client's Last-Event-ID, if any. An id newer than any event of
   * this process comes from an earlier run of the daemon, so that client must resync too.
   */
  open(after: number | undefined): SseClientQueue {
    const missed = after === undefined || after > this.#lastId ? undefined : this.#missedFrames(after);
    // The backlog is bounded by what the bus retains (1000 events): it gets room of its own, on
    // top of the limits that protect the daemon from a client that stops reading.
    const backlog = missed ?? { frames: [], bytes: 0 };
    const limits = { maxFrames: this.#limits.maxFrames + backlog.frames.length, maxBytes: this.#limits.maxBytes + backlog.bytes };
    const client = new SseClientQueue(limits, (reason) => this.#left(client, reason));
    if (this.#closed) {
      client.close();
      return client;
    }
    client.push(retryFrame());
    if (after !== undefined) {
      if (missed === undefined) client.push(frame(this.#lastId, "resync", { last_event_id: this.#lastId, requested: after }));
      else for (const text of missed.frames) client.push(text);
    }
    client.push(frame(this.#lastId, "ready", { last_event_id: this.#lastId }));
    if (client.ended) return client;
    this.#clients.add(client);
    this.#logger.debug("event stream client connected", { clients: this.#clients.size, ...(after !== undefined ? { last_event_id: after } : {}) });
    this.#heartbeat ??= setInterval(() => this.#broadcast(HEARTBEAT_BYTES), this.#heartbeatMs);
    return client;
  }

  /** Ends every stream cleanly and takes no new client (the daemon is stopping). */
  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    for (const client of [...this.#clients]) client.close();
    this.#stopHeartbeat();
  }

  /** The frames after `after` and their size, or undefined when they are not all retained. */
  #missedFrames(after: number): { frames: string[]; bytes: number } | undefined {
    const missed = this.#events.since(after);
    if (missed === undefined) return undefined;
    const frames = missed.map(eventFrame);
    return { frames, bytes: frames.reduce((sum, text) => sum + utf8.encode(text).byteLength, 0) };
  }

  #deliver(event: NumberedEvent): void {
    this.#lastId = event.id;
    if (this.#clients.size > 0) this.#broadcast(utf8.encode(eventFrame(event)));
  }

  #broadcast(bytes: Uint8Array): void {
    for (const client of [...this.#clients]) client.push(bytes);
  }

  #left(client: SseClientQueue, reason: "closed" | "overflow"): void {
    this.#clients.delete(client);
    if (reason === "overflow") {
      this.#logger.warn("dropped an event stream client that stopped reading", {
        max_frames: this.#limits.maxFrames,
        max_bytes: this.#limits.maxBytes,
        clients: this.#clients.size,
      });
    } else {
      this.#logger.debug("event stream client disconnected", { clients: this.#clients.size });
    }
    if (this.#clients.size === 0) this.#stopHeartbeat();
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
