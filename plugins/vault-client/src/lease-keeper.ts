/**
 * @module Keeps the Vault token and the renewable leases of secrets alive until the daemon stops:
 * each is renewed when two thirds of its TTL have passed (as Vault's own lifetime watcher does),
 * then again on the TTL Vault grants. Without an `ending` callback a renewal that fails is reported
 * once, at ERROR, and not retried: the value in use stays until it expires (CTS's behaviour). With
 * one (a watched secret), the owner is told instead, when a renewal fails and when Vault grants
 * less than the lease's TTL (its maximum is near), two thirds into what is left, so that it can
 * read the secret again before the lease ends.
 */
import { errorMessage, type Logger } from "../../../core/plugin-api/mod.ts";

/** Renews one thing and answers its new TTL in seconds (0: no longer renewable). */
export type Renew = () => Promise<number>;

const twoThirds = (seconds: number): number => Math.max(1, Math.floor(seconds * 1000 * 2 / 3));

export class LeaseKeeper {
  readonly #logger: Logger;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #stopped = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * Renews `what` (a description without secrets) at 2/3 of `ttlSeconds`, and again after each
   * renewal. Returns a function that stops keeping it (the lease was replaced).
   */
  keep(what: string, ttlSeconds: number, renew: Renew, ending?: (error?: unknown) => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const later = (ms: number, work: () => void): void => {
      if (this.#stopped || cancelled) return;
      timer = setTimeout(() => {
        this.#timers.delete(timer!);
        if (!this.#stopped && !cancelled) work();
      }, ms);
      this.#timers.add(timer);
    };
    const cycle = (ttl: number): void => {
      if (ttl <= 0) return;
      later(twoThirds(ttl), async () => {
        let next: number;
        try {
          next = await renew();
        } catch (error) {
          if (this.#stopped || cancelled) return;
          if (ending) ending(error);
          else this.#logger.error("cannot renew, the value expires at the end of its TTL", { what, error: errorMessage(error) });
          return;
        }
        this.#logger.debug("renewed", { what, ttl_seconds: next });
        if (ending && next < ttlSeconds) {
          // The lease nears its maximum TTL: no renewal can keep it, a new read must replace it.
          if (next <= 0) ending();
          else later(twoThirds(next), () => ending());
          return;
        }
        cycle(next);
      });
    };
    cycle(ttlSeconds);
    return () => {
      cancelled = true;
      if (timer !== undefined) {
        clearTimeout(timer);
        this.#timers.delete(timer);
      }
    };
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
