/**
 * @module What a task being created does outside itself (stored events and run records, event
 * listeners such as metrics, the daemon's live events) is held until the create succeeds, so a
 * rejected create leaves nothing anywhere: released in order on success, dropped on failure.
 */
export class HeldEffects {
  #held: (() => unknown)[] | undefined;

  constructor(held: boolean) {
    this.#held = held ? [] : undefined;
  }

  /** Runs `effect` now, or keeps it for `release` while held. Effects handle their own errors. */
  async run(effect: () => unknown): Promise<void> {
    if (this.#held) this.#held.push(effect);
    else await effect();
  }

  /** Runs what was kept, in order; from now on effects run at once. */
  async release(): Promise<void> {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const effect of held) await effect();
  }

  /** Forgets what was kept (the create was rejected); later effects are dropped too. */
  drop(): void {
    this.#held = [];
  }
}
