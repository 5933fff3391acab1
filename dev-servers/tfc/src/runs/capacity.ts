/**
 * @module Capacity: how many runs execute at once (HCP Terraform's concurrency limit). Waiting
 * runs queue in order, which gives each its `position-in-queue`.
 */

interface Waiter {
  readonly runId: string;
  readonly grant: () => void;
  readonly abort: (reason: unknown) => void;
}

export class Capacity {
  readonly #holders = new Set<string>();
  #waiting: Waiter[] = [];

  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get running(): number {
    return this.#holders.size;
  }

  get pending(): number {
    return this.#waiting.length;
  }

  /** 1-based place of a waiting run; 0 when it is not waiting. */
  position(runId: string): number {
    return this.#waiting.findIndex((waiter) => waiter.runId === runId) + 1;
  }

  /** Resolves with a release function once `runId` may execute; rejects if `signal` aborts first. */
  acquire(runId: string, signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const release = (): void => {
        if (this.#holders.delete(runId)) this.#grantNext();
      };
      const waiter: Waiter = {
        runId,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          this.#holders.add(runId);
          resolve(release);
        },
        abort: reject,
      };
      const onAbort = (): void => {
        this.#waiting = this.#waiting.filter((other) => other !== waiter);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#grantNext();
    });
  }

  #grantNext(): void {
    while (this.#holders.size < this.limit && this.#waiting.length > 0) this.#waiting.shift()!.grant();
  }
}
