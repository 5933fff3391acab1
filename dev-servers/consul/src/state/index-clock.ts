/**
 * @module The Raft-index stand-in. Seeded from the wall clock (ms) and never below it, so a
 * restarted server (with or without a snapshot) never hands out an index smaller than before.
 */

export class IndexClock {
  #current: number;

  constructor(floor = 0) {
    this.#current = Math.max(floor, Date.now());
  }

  /** The latest index handed out (≥ 1). */
  get current(): number {
    return this.#current;
  }

  /** A fresh index for one write: strictly greater than every earlier one. */
  next(): number {
    this.#current = Math.max(this.#current + 1, Date.now());
    return this.#current;
  }

  /** After a snapshot load: never go below what the snapshot already handed out. */
  raiseTo(index: number): void {
    if (index > this.#current) this.#current = index;
  }
}
