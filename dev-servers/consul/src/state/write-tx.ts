/** @module One write (a PUT, a txn, a timer firing): a single index shared by all its changes, plus what it touched. */
import type { IndexClock } from "./index-clock.ts";

export class WriteTx {
  readonly #clock: IndexClock;
  #index: number | undefined;
  /** Topics to wake: `kv:<key>` is expanded to every prefix at commit. */
  readonly topics: Set<string> = new Set();
  readonly kvKeys: Set<string> = new Set();

  constructor(clock: IndexClock) {
    this.#clock = clock;
  }

  /** The index of this write, allocated on first use (reads inside a txn never allocate). */
  get index(): number {
    return this.#index ??= this.#clock.next();
  }

  get wrote(): boolean {
    return this.#index !== undefined;
  }
}
