/**
 * @module Parked blocking queries. A waiter sits in the sets of the topics it watches (a KV key,
 * a KV prefix, a service, "sessions", ...); a write notifies exactly the topics it touched.
 * Nothing polls: an idle waiter is one set entry, one timer and one abort listener.
 */

interface Waiter {
  readonly topics: readonly string[];
  done(): void;
}

export class WatchHub {
  readonly #topics = new Map<string, Set<Waiter>>();
  readonly #all = new Set<Waiter>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Number of parked waiters (for benches and tests). */
  get size(): number {
    return this.#all.size;
  }

  /**
   * Resolves when one of `topics` is notified, after `timeoutMs`, when `signal` aborts, or at
   * close(). Cleanup runs once whichever comes first (Deno aborts request signals after normal
   * responses too, so every path must be idempotent).
   */
  wait(topics: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let finished = false;
      const waiter: Waiter = {
        topics,
        done: () => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", waiter.done);
          this.#all.delete(waiter);
          for (const topic of topics) {
            const set = this.#topics.get(topic);
            if (set && set.delete(waiter) && set.size === 0) this.#topics.delete(topic);
          }
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, Math.max(0, timeoutMs));
      if (signal?.aborted || this.#closed) {
        waiter.done();
        return;
      }
      signal?.addEventListener("abort", waiter.done, { once: true });
      this.#all.add(waiter);
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
}
