/**
 * @module A task's buffer period: wait for changes to settle before running.
 *
 * The first change arms a timer of `min` and fixes a deadline `max` later; each further change
 * restarts the `min` wait but never past the deadline, so a constant stream of changes still
 * runs the task at least every `max`.
 */

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class BufferTimer {
  readonly #minMs: number;
  readonly #maxMs: number;
  readonly #onFire: () => void;
  readonly #clock: Clock;
  #handle: unknown;
  #deadline = 0;
  #armed = false;

  constructor(minMs: number, maxMs: number, onFire: () => void, clock: Clock = systemClock) {
    this.#minMs = minMs;
    this.#maxMs = Math.max(minMs, maxMs);
    this.#onFire = onFire;
    this.#clock = clock;
  }

  /** True while a change is waiting for the period to end. */
  get pending(): boolean {
    return this.#armed;
  }

  /** Records a change: arms the period or pushes it back (never past the deadline). */
  poke(): void {
    const now = this.#clock.now();
    if (!this.#armed) {
      this.#armed = true;
      this.#deadline = now + this.#maxMs;
    } else {
      this.#clock.clearTimeout(this.#handle);
    }
    const wait = Math.max(0, Math.min(this.#minMs, this.#deadline - now));
    this.#handle = this.#clock.setTimeout(() => this.#fire(), wait);
  }

  /** Drops a waiting change (task stopped, deleted, or this instance stepped down). */
  cancel(): void {
    if (!this.#armed) return;
    this.#clock.clearTimeout(this.#handle);
    this.#armed = false;
  }

  #fire(): void {
    this.#armed = false;
    this.#onFire();
  }
}
