/** @module Keeps fetch starts of one query at least 100 ms apart (CTS's floor), plus a little jitter. */
import { sleep } from "./backoff.ts";

export const MIN_FETCH_GAP_MS = 100;
const JITTER_MS = 20;

export class FetchSpacer {
  /** Query key → the start time reserved for its latest fetch. */
  readonly #slots = new Map<string, number>();
  readonly #gapMs: number;

  constructor(gapMs: number = MIN_FETCH_GAP_MS) {
    this.#gapMs = gapMs;
  }

  /** Waits until this query may start another fetch; concurrent callers get successive slots. */
  async wait(key: string, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const previous = this.#slots.get(key);
    const start = previous === undefined ? now : Math.max(now, previous + this.#gapMs + Math.random() * JITTER_MS);
    this.#slots.set(key, start);
    if (this.#slots.size > 512) this.#prune(now);
    if (start > now) await sleep(start - now, signal);
  }

  #prune(now: number): void {
    for (const [key, start] of this.#slots) {
      if (now - start > this.#gapMs + JITTER_MS) this.#slots.delete(key);
    }
  }
}
