/**
 * @module A task's buffer period (CTS's `buffer_period`): triggers within it become one run with
 * the newest trigger's reason, and whoever waits for the task to be idle waits for it too.
 */
import type { TriggerReason } from "../../../core/plugin-api/mod.ts";
import { BufferTimer } from "./buffer-timer.ts";

export class BufferedTrigger {
  readonly #timer: BufferTimer;
  #reason: TriggerReason | undefined;
  #waiters: (() => void)[] = [];

  /** `fire` gets the newest buffered reason once the period ends. */
  constructor(minMs: number, maxMs: number, fire: (reason: TriggerReason) => void) {
    this.#timer = new BufferTimer(minMs, maxMs, () => {
      const reason = this.#reason ?? { kind: "dependency" };
      this.#reason = undefined;
      fire(reason);
      this.#release();
    });
  }

  poke(reason: TriggerReason): void {
    this.#reason = reason;
    this.#timer.poke();
  }

  /** Resolves once no buffered trigger is pending (it fired or was cancelled). */
  async settled(): Promise<void> {
    while (this.#timer.pending) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  cancel(): void {
    this.#timer.cancel();
    this.#release();
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
