/**
 * @module Parked blocking queries. A waiter sits in the sets of the topics it watches (a KV key,
 * a KV prefix, a service, "sessions", ...); a write notifies exactly the topics it touched.
 * Nothing polls: an idle waiter is one set entry per topic, one slot in a deadline bucket and one
 * abort listener.
 *
 * Deadlines share timers: a waiter's wait ends at the first bucket boundary after its deadline,
 * late by at most 1/64 of the wait (50 ms at least, in power-of-two steps so that waits differing
 * only by jitter share boundaries); Consul itself adds up to wait/16 of jitter.
 * 10 000 watchers parked with the default 5-minute wait hold a handful of timers, not 10 000, and
 * waking them clears no timer per watcher.
 */

/** Smallest deadline granularity. */
const MIN_BUCKET_MS = 50;
/** Granularity as a fraction of the wait (a quarter of Consul's own jitter). */
const BUCKET_FRACTION = 64;

interface Waiter {
  readonly topics: readonly string[];
  readonly bucket: number;
  done(): void;
}

interface Bucket {
  readonly timer: ReturnType<typeof setTimeout>;
  readonly waiters: Set<Waiter>;
}

export class WatchHub {
  readonly #topics = new Map<string, Set<Waiter>>();
  readonly #all = new Set<Waiter>();
  /** Deadline (ms, a multiple of BUCKET_MS) → the waiters whose wait ends then. */
  readonly #buckets = new Map<number, Bucket>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Number of parked waiters (for benches and tests). */
  get size(): number {
    return this.#all.size;
  }

  /** Number of deadline timers armed (for tests: they are shared, not one per waiter). */
  get timers(): number {
    return this.#buckets.size;
  }

  /**
   * Resolves when one of `topics` is notified, after `timeoutMs` (rounded up to its bucket), when
   * `signal` aborts, or at close(). Cleanup runs once whichever comes first (Deno aborts request
   * signals after normal responses too, so every path must be idempotent).
   */
  wait(topics: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted || this.#closed) {
        resolve();
        return;
      }
      let finished = false;
      const wait = Math.max(0, timeoutMs);
      // A power-of-two multiple of the minimum, so waits that differ only by jitter share boundaries.
      const steps = Math.max(1, wait / BUCKET_FRACTION / MIN_BUCKET_MS);
      const granularity = MIN_BUCKET_MS * 2 ** Math.floor(Math.log2(steps));
      const bucket = Math.ceil((Date.now() + wait) / granularity) * granularity;
      const waiter: Waiter = {
        topics,
        bucket,
        done: () => {
          if (finished) return;
          finished = true;
          signal?.removeEventListener("abort", waiter.done);
          this.#all.delete(waiter);
          this.#leaveBucket(waiter);
          for (const topic of topics) {
            const set = this.#topics.get(topic);
            if (set && set.delete(waiter) && set.size === 0) this.#topics.delete(topic);
          }
          resolve();
        },
      };
      signal?.addEventListener("abort", waiter.done, { once: true });
      this.#all.add(waiter);
      this.#joinBucket(waiter);
      for (const topic of topics) {
        let set = this.#topics.get(topic);
        if (!set) this.#topics.set(topic, set = new Set());
        set.add(waiter);
      }
    });
  }

  /** Wakes every waiter on any of `topics`. */
  notify(topics: Iterable<string>): void {
    const woken: Waiter[] = [];
    for (const topic of topics) {
      const set = this.#topics.get(topic);
      if (set) for (const waiter of set) woken.push(waiter);
    }
    for (const waiter of woken) waiter.done();
  }

  /** Wakes everyone (server stop). */
  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#all]) waiter.done();
  }

  #joinBucket(waiter: Waiter): void {
    let bucket = this.#buckets.get(waiter.bucket);
    if (!bucket) {
      const at = waiter.bucket;
      const timer = setTimeout(() => this.#expire(at), Math.max(0, at - Date.now()));
      this.#buckets.set(at, bucket = { timer, waiters: new Set() });
    }
    bucket.waiters.add(waiter);
  }

  #leaveBucket(waiter: Waiter): void {
    const bucket = this.#buckets.get(waiter.bucket);
    if (!bucket || !bucket.waiters.delete(waiter) || bucket.waiters.size > 0) return;
    clearTimeout(bucket.timer);
    this.#buckets.delete(waiter.bucket);
  }

  #expire(at: number): void {
    const bucket = this.#buckets.get(at);
    if (!bucket) return;
    this.#buckets.delete(at);
    for (const waiter of [...bucket.waiters]) waiter.done();
  }
}
