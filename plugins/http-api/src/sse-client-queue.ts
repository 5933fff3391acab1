/**
 * @module One Server-Sent Events client: a bounded queue of encoded frames drained by a pull-based
 * body stream. The HTTP server pulls the next chunk only once the socket took the previous one
 * (@hono/node-server waits for `drain`; Deno.serve polls the body as it writes), so a client that
 * does not read leaves its frames here, where the bound is enforced: past it the client is dropped
 * (its queue is discarded and its response ends after what the socket already holds; an
 * EventSource then reconnects with Last-Event-ID and misses nothing still retained) instead of the
 * daemon buffering for it. Until the client reads or goes away, the server keeps at most the one
 * chunk it was writing: a dropped client costs at most one queue's worth.
 *
 * Why not hono's `streamSSE`: its writer resolves once a TransformStream took a chunk, and the bus
 * publishes synchronously, so a queue with a bound would be needed in front of it anyway.
 */

export interface SseQueueLimits {
  /** Frames waiting for the socket, at most. */
  readonly maxFrames: number;
  /** Bytes waiting for the socket, at most. */
  readonly maxBytes: number;
}

/** Enough for a burst of a busy engine; small next to the daemon (100 slow clients ≈ 25 MiB). */
export const DEFAULT_SSE_LIMITS: SseQueueLimits = { maxFrames: 1000, maxBytes: 256 * 1024 };

const encoder = new TextEncoder();

export class SseClientQueue {
  readonly body: ReadableStream<Uint8Array>;
  readonly #limits: SseQueueLimits;
  readonly #frames: Uint8Array[] = [];
  #bytes = 0;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Set while the server waits for a frame (a pull found the queue empty). */
  #waiting: (() => void) | undefined;
  #ended = false;
  readonly #onEnd: (reason: "closed" | "overflow") => void;

  constructor(limits: SseQueueLimits, onEnd: (reason: "closed" | "overflow") => void) {
    this.#limits = limits;
    this.#onEnd = onEnd;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: (controller) => this.#pull(controller),
        cancel: () => this.#end("closed"),
      },
      // Nothing is held inside the stream: a frame leaves the queue only when the server asks.
      { highWaterMark: 0 },
    );
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Frames and bytes waiting (benches and tests read it). */
  get backlog(): { readonly frames: number; readonly bytes: number } {
    return { frames: this.#frames.length, bytes: this.#bytes };
  }

  /**
   * Queues one frame (encoded once by the caller when it goes to many clients); drops the client
   * when this passes a bound. Returns false once ended.
   */
  push(frame: string | Uint8Array): boolean {
    if (this.#ended) return false;
    const bytes = typeof frame === "string" ? encoder.encode(frame) : frame;
    // A frame larger than the bound on its own (a run record listing thousands of instances) is
    // still sent to a client that has nothing waiting: the bound is on a backlog, not on one event.
    const backlog = this.#frames.length > 0;
    if (backlog && (this.#frames.length + 1 > this.#limits.maxFrames || this.#bytes + bytes.byteLength > this.#limits.maxBytes)) {
      // The stream ends at a frame boundary once the socket takes what it already holds; a close
      // rather than an error, which the servers would log as a failed response.
      this.#finish("overflow");
      return false;
    }
    this.#frames.push(bytes);
    this.#bytes += bytes.byteLength;
    const wake = this.#waiting;
    this.#waiting = undefined;
    wake?.();
    return true;
  }

  /** Ends the stream; frames still queued are dropped (the daemon is stopping). */
  close(): void {
    this.#finish("closed");
  }

  #finish(reason: "closed" | "overflow"): void {
    if (this.#ended) return;
    this.#frames.length = 0;
    this.#bytes = 0;
    try {
      this.#controller.close();
    } catch {
      // Already closed or cancelled by the server: nothing left to end.
    }
    this.#end(reason);
  }

  #pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> | void {
    if (this.#ended) return;
    if (this.#frames.length === 0) {
      return new Promise<void>((resolve) => {
        this.#waiting = resolve;
      }).then(() => this.#pull(controller));
    }
    // Everything waiting goes out as one chunk: one write per wake-up, whatever the burst.
    const chunk = this.#frames.length === 1 ? this.#frames[0]! : concat(this.#frames, this.#bytes);
    this.#frames.length = 0;
    this.#bytes = 0;
    controller.enqueue(chunk);
  }

  #end(reason: "closed" | "overflow"): void {
    if (this.#ended) return;
    this.#ended = true;
    const wake = this.#waiting;
    this.#waiting = undefined;
    wake?.();
    this.#onEnd(reason);
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
