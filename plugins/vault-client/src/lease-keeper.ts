/**
 * @module Keeps the Vault token and the renewable leases of secrets alive until the daemon stops:
 * each is renewed when two thirds of its TTL have passed (as Vault's own lifetime watcher does),
 * then again on the TTL Vault grants. A renewal that fails is reported once, at ERROR, and not
 * retried: the value already in use stays until it expires, and the next start reads it again.
 */
import { errorMessage, type Logger } from "../../../core/plugin-api/mod.ts";

/** Renews one thing and answers its new TTL in seconds (0: no longer renewable). */
export type Renew = () => Promise<number>;

export class LeaseKeeper {
  readonly #logger: Logger;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #stopped = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Renews `what` (a description without secrets) at 2/3 of `ttlSeconds`, and again after each renewal. */
  keep(what: string, ttlSeconds: number, renew: Renew): void {
    if (this.#stopped || ttlSeconds <= 0) return;
    const timer = setTimeout(async () => {
      this.#timers.delete(timer);
      if (this.#stopped) return;
      try {
        const next = await renew();
        this.#logger.debug("renewed", { what, ttl_seconds: next });
        this.keep(what, next, renew);
      } catch (error) {
        if (!this.#stopped) this.#logger.error("cannot renew, the value expires at the end of its TTL", { what, error: errorMessage(error) });
      }
    }, Math.max(1, Math.floor(ttlSeconds * 1000 * 2 / 3)));
    this.#timers.add(timer);
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
