/**
 * @module This instance's Consul session, bound to its own registration health check when it can be.
 *
 * Consul invalidates a session when any check it is bound to goes critical, so a crashed instance's
 * locks go once its `/v1/health` check fails (within the check interval + timeout) instead of at
 * TTL expiry (TTL to 2×TTL). The TTL stays as the backstop for a hung or partitioned instance.
 *
 * Consul refuses to bind a check that is missing or critical, and the registration check is created
 * critical and only passes after its first run, which comes after the API listens. So the session
 * starts TTL-only when it must; a loop then retries the binding every second and, once the check
 * passes, moves the held locks onto the bound session in one transaction per 32 keys (unlock from the
 * old session + lock with the new one), so no other instance can take them in between. The old,
 * TTL-only session is kept (and renewed) as a standby: a graceful stop closes the API (the check
 * fails) and deregisters the service (the check vanishes), either of which would invalidate the bound
 * session while running applies drain, so a stop first moves the locks back onto the standby.
 */
import {
  consulQuery, errorMessage, formatGoDuration, sleep, type ConsulClient, type KvTxnOp, type Logger,
} from "../../../core/plugin-api/mod.ts";

/** A lock held with this instance's session and the value it keeps. */
export interface HeldLock {
  readonly key: string;
  readonly value: string;
}

export interface InstanceSessionOptions {
  readonly consul: ConsulClient;
  readonly name: string;
  readonly ttlMs: number;
  /** This instance's registration check (undefined when registration or its check is off). */
  readonly checkId: string | undefined;
  /**
   * Epoch ms before which the check's status may still be a crashed predecessor's (see
   * `checkTrustedFrom`); no session is bound to it earlier. Default: at once.
   */
  readonly checkTrustedFrom?: number;
  readonly logger: Logger;
  /** The locks to carry along when the session changes. */
  heldLocks(): readonly HeldLock[];
}

/** Pause before a new try after a failed renewal, and between tries to bind the check. */
export const RETRY_MS = 1000;
/** Consul's txn limit is 64 operations; a move takes two per key. */
const KEYS_PER_TXN = 32;

/** The check id CTS gives the registration check (see plugins/service-registration). */
export function registrationCheckId(config: {
  readonly id: string;
  readonly consul: { readonly service_registration: { readonly enabled: boolean; readonly default_check: { readonly enabled: boolean } } };
}): string | undefined {
  const registration = config.consul.service_registration;
  return registration.enabled && registration.default_check.enabled ? `${config.id}-health` : undefined;
}

/**
 * When the registration check's status can first be trusted to be this process's: a predecessor
 * killed with -9 leaves its check registered, and it may still read "passing" until its next run
 * (one interval + timeout after this process re-registers it). A session bound to it before then
 * would be invalidated by that stale check failing, and the lock would flap at start-up.
 */
export function checkTrustedFrom(
  config: { readonly consul: { readonly service_registration: { readonly default_check: { readonly interval?: number; readonly timeout?: number } } } },
  startedAt: number,
): number {
  const check = config.consul.service_registration.default_check;
  return startedAt + (check.interval ?? 10_000) + (check.timeout ?? 2_000) + RETRY_MS;
}

/** Consul's answers when a check cannot be bound yet: not registered, or not passing. */
function checkNotBindable(error: unknown): boolean {
  return /Missing check|is in critical state/i.test(errorMessage(error));
}

export class InstanceSession {
  readonly #options: InstanceSessionOptions;
  #current: string | undefined;
  #standby: string | undefined;
  /** A bound session while its locks are being moved onto it (already "ours" for lock readers). */
  #pending: string | undefined;
  #bound = false;
  #closing = false;
  #lastRenewOk = 0;
  #mutex: Promise<unknown> = Promise.resolve();

  constructor(options: InstanceSessionOptions) {
    this.#options = options;
  }

  get id(): string {
    if (!this.#current) throw new Error("the session is not open");
    return this.#current;
  }

  /** True while the locks are held by a session bound to the health check. */
  get bound(): boolean {
    return this.#bound;
  }

  /** Whether a lock holder's session is this instance's (current, standby or being moved to). */
  isOwn(session: string | undefined): boolean {
    return session !== undefined && (session === this.#current || session === this.#standby || session === this.#pending);
  }

  async open(): Promise<void> {
    const { checkId, logger } = this.#options;
    this.#lastRenewOk = Date.now();
    if (checkId && Date.now() < (this.#options.checkTrustedFrom ?? 0)) {
      logger.info("session bound to its TTL until the health check has run against this process", { check_id: checkId });
    } else if (checkId) {
      try {
        await this.#requirePassing();
        this.#current = await this.#create(true);
        this.#bound = true;
        this.#standby = await this.#create(false);
        return;
      } catch (error) {
        if (!checkNotBindable(error)) throw error;
        logger.info("session not bound to the health check yet; binding it once the check passes", {
          check_id: checkId, reason: errorMessage(error),
        });
      }
    } else {
      logger.info("session bound to its TTL only: service registration or its default check is off; a crash is detected at TTL expiry");
    }
    this.#current = await this.#create(false);
    this.#bound = false;
  }

  /** Serialises lock acquisitions with session moves, so no lock is taken with a session being replaced. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#mutex.then(work, work);
    this.#mutex = next.catch(() => undefined);
    return next;
  }

  /**
   * Renews every TTL/2 (every second after a failure) and, while unbound, tries to bind the check
   * every second, until `lost` aborts; aborts `lost` when the session is gone or fencing says so:
   * an instance that has not renewed for a whole TTL stops before Consul can release its locks.
   */
  async keepAlive(lost: AbortController): Promise<void> {
    await Promise.all([this.#renewLoop(lost), this.#bindLoop(lost.signal)]);
  }

  /** Graceful stop: moves the locks back onto the TTL-only standby (see the module comment). */
  unbind(): Promise<void> {
    this.#closing = true;
    return this.exclusive(async () => {
      const bound = this.#current;
      const standby = this.#standby;
      if (!this.#bound || !bound || !standby) return;
      await this.#moveLocks(bound, standby);
      this.#current = standby;
      this.#standby = undefined;
      this.#bound = false;
      await this.#options.consul.sessionDestroy(bound).catch(() => {});
    });
  }

  /** Destroys the sessions (callers release their locks first). */
  async close(): Promise<void> {
    this.#closing = true;
    const { consul } = this.#options;
    for (const id of [this.#current, this.#standby]) if (id) await consul.sessionDestroy(id).catch(() => {});
    this.#current = this.#standby = undefined;
  }

  /** Sessions a release may have to name (the lock may be on either). */
  sessions(): string[] {
    return [this.#current, this.#standby].filter((id): id is string => id !== undefined);
  }

  /**
   * Asks the agent first: a session create Consul refuses counts as a failed request in the client's
   * connection log, and the check may take up to an interval to pass.
   */
  async #requirePassing(): Promise<void> {
    const { consul, checkId } = this.#options;
    // Not allowed to read the agent's checks (ACL): the session create itself answers.
    const checks = await consul.query(consulQuery("/v1/agent/checks")).then((result) => result.data as Record<string, { Status?: string }> | null)
      .catch(() => undefined);
    if (checks === undefined) return;
    const status = checks?.[checkId!]?.Status;
    if (status === undefined) throw new Error(`Missing check '${checkId}' registration`);
    if (status === "critical") throw new Error(`Check '${checkId}' is in critical state`);
  }

  #create(bound: boolean): Promise<string> {
    const { consul, name, ttlMs, checkId } = this.#options;
    return consul.sessionCreate({
      name,
      ttl: formatGoDuration(ttlMs),
      behavior: "delete",
      lockDelay: "0s",
      // serfHealth is Consul's default node check; naming any check drops it, so it is listed again.
      checks: bound && checkId ? ["serfHealth", checkId] : [],
    });
  }

  async #renewLoop(lost: AbortController): Promise<void> {
    const { consul, ttlMs, logger } = this.#options;
    const period = Math.max(100, Math.floor(ttlMs / 2));
    let wait = period;
    while (!lost.signal.aborted) {
      await sleep(Math.min(wait, this.#lastRenewOk + ttlMs - Date.now()), lost.signal);
      if (lost.signal.aborted) return;
      try {
        if (!(await consul.sessionRenew(this.id))) {
          logger.warn("session expired; stepping down", { bound_to_check: this.#bound });
          lost.abort();
          return;
        }
        this.#lastRenewOk = Date.now();
        wait = period;
        const standby = this.#standby;
        if (standby && !(await consul.sessionRenew(standby))) {
          this.#standby = this.#closing ? undefined : await this.#create(false);
        }
      } catch (error) {
        logger.warn("cannot renew session", { error: errorMessage(error) });
        wait = Math.min(period, RETRY_MS);
      }
      if (Date.now() >= this.#lastRenewOk + ttlMs) {
        logger.error("no session renewal for a whole TTL; stepping down");
        lost.abort();
        return;
      }
    }
  }

  async #bindLoop(signal: AbortSignal): Promise<void> {
    const { checkId, logger } = this.#options;
    if (!checkId) return;
    while (!signal.aborted && !this.#bound && !this.#closing) {
      await sleep(Math.max(RETRY_MS, (this.#options.checkTrustedFrom ?? 0) - Date.now()), signal);
      if (signal.aborted || this.#closing) return;
      let bound: string;
      try {
        await this.#requirePassing();
        bound = await this.#create(true);
      } catch (error) {
        if (!checkNotBindable(error)) logger.warn("cannot bind the session to the health check yet", { error: errorMessage(error) });
        continue;
      }
      await this.exclusive(async () => {
        const old = this.#current;
        if (signal.aborted || this.#closing || !old) {
          await this.#options.consul.sessionDestroy(bound).catch(() => {});
          return;
        }
        this.#pending = bound;
        await this.#moveLocks(old, bound);
        this.#current = bound;
        this.#standby = old;
        this.#pending = undefined;
        this.#bound = true;
        logger.info("session bound to the health check: a crash now releases this instance's locks when the check fails", {
          check_id: checkId,
        });
      });
    }
  }

  /** Moves every held lock from one session to another, atomically per chunk; a lock lost meanwhile stays lost. */
  async #moveLocks(from: string, to: string): Promise<void> {
    const { consul, logger } = this.#options;
    const held = this.#options.heldLocks();
    for (let at = 0; at < held.length; at += KEYS_PER_TXN) {
      const chunk = held.slice(at, at + KEYS_PER_TXN);
      const ops = (locks: readonly HeldLock[]): KvTxnOp[] => locks.flatMap(({ key, value }) => [
        { verb: "unlock", key, value, session: from } as const,
        { verb: "lock", key, value, session: to } as const,
      ]);
      try {
        if (await consul.kvTxn(ops(chunk))) continue;
        // One key of the chunk was no longer held: move the others one by one.
        for (const lock of chunk) await consul.kvTxn(ops([lock]));
      } catch (error) {
        logger.warn("cannot move locks to the new session", { error: errorMessage(error) });
      }
    }
  }
}
