/** @module The global cap on concurrent task runs (`max_concurrent_runs`; 0 means no cap). */

export class RunLimiter {
  readonly #max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    this.#max = max > 0 ? max : Infinity;
  }

  get active(): number {
    return this.#active;
  }

  /** Runs `work` once a slot is free; slots are handed out in request order. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#max) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so `active` never dips and overshoots.
      if (next) next();
      else this.#active--;
    }
  }
}
