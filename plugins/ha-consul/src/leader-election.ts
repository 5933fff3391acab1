/**
 * @module Leader election on a Consul session lock, as the Go client's Lock recipe does it.
 *
 * Timing: the session is renewed every TTL/2. Consul invalidates a session between TTL and 2×TTL
 * after its last renewal, so a crashed leader is replaced within 2×TTL. Lock-delay is 0 because a
 * non-zero delay would push crash failover past 2×TTL; overlap is prevented instead by fencing: a
 * leader that has not renewed successfully for a whole TTL steps down before Consul can have
 * released its lock. A graceful stop releases the lock, so a follower takes over within a second.
 * When the key vanishes (the holder's session was invalidated), followers wait min(TTL/10, 250 ms)
 * before acquiring, so a holder that is still alive (session destroyed by hand) sees it and steps
 * down first; crash failover is therefore at most 2×TTL plus that pause plus a round trip.
 */
import {
  consulQuery, errorMessage, formatGoDuration, sleep, type ConsulClient, type KvPair, type LeaderInfo, type Leadership,
  type Logger,
} from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";

export interface LeaderElectionOptions {
  readonly consul: ConsulClient;
  readonly layout: KvLayout;
  readonly clusterName: string;
  readonly instanceId: string;
  readonly address?: string;
  readonly sessionTtlMs: number;
  readonly logger: Logger;
}

/** Pause before a new session after a failure (the Go client's monitor retry is of this order). */
const RETRY_MS = 1000;

/**
 * Upper bound of the pause before taking a lock whose key vanished. It is added to crash failover
 * (session expiry comes 1.5–2×TTL after the crash), so it is kept small next to any TTL.
 */
const INVALIDATION_GRACE_MAX_MS = 250;

/** What the lock key holds, so followers can redirect to the leader. */
interface LockValue {
  readonly id: string;
  readonly address?: string;
}

export class LeaderElection implements Leadership {
  readonly instanceId: string;
  readonly #options: LeaderElectionOptions;
  readonly #listeners = new Set<(isLeader: boolean) => void>();
  readonly #stopping = new AbortController();
  #isLeader = false;
  #leader: LeaderInfo | undefined;
  #lastRenewOk = 0;
  #running: Promise<void> | undefined;

  constructor(options: LeaderElectionOptions) {
    this.#options = options;
    this.instanceId = options.instanceId;
  }

  isLeader(): boolean {
    return this.#isLeader;
  }

  leader(): LeaderInfo | undefined {
    return this.#leader;
  }

  subscribe(listener: (isLeader: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    this.#running ??= this.#campaign();
  }

  /**
   * Steps down first (so this instance never leads without the lock), then releases the lock and
   * destroys the session, so a follower takes over at once.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#setLeader(false);
    await this.#running?.catch(() => {});
  }

  async #campaign(): Promise<void> {
    const { consul, layout, logger } = this.#options;
    const stopping = this.#stopping.signal;
    while (!stopping.aborted) {
      let session: string | undefined;
      const lost = new AbortController();
      const onStop = () => lost.abort();
      stopping.addEventListener("abort", onStop, { once: true });
      try {
        session = await this.#createSession();
        const renewing = this.#renew(session, lost);
        try {
          await this.#contend(session, lost.signal);
        } finally {
          this.#setLeader(false);
          lost.abort();
          await renewing;
        }
      } catch (error) {
        this.#setLeader(false);
        if (!stopping.aborted) logger.warn("leader election interrupted; retrying", { error: errorMessage(error) });
      } finally {
        stopping.removeEventListener("abort", onStop);
        if (session) {
          // Release before destroying: the key then stays (empty) and followers see it free at once.
          await consul.kvPut(layout.leaderKey, "", { release: session }).catch(() => false);
          await consul.sessionDestroy(session).catch(() => {});
        }
      }
      if (!stopping.aborted) await sleep(RETRY_MS, stopping);
    }
  }

  #createSession(): Promise<string> {
    const { consul, clusterName, instanceId, sessionTtlMs } = this.#options;
    this.#lastRenewOk = Date.now();
    return consul.sessionCreate({
      name: `cts-runtime ${clusterName} ${instanceId}`,
      ttl: formatGoDuration(sessionTtlMs),
      behavior: "delete",
      lockDelay: "0s",
      checks: [],
    });
  }

  /**
   * Renews every TTL/2 (every second after a failure, like the Go client) until `lost` aborts;
   * aborts `lost` when the session is gone or when fencing says so.
   */
  async #renew(session: string, lost: AbortController): Promise<void> {
    const { consul, sessionTtlMs, logger } = this.#options;
    const period = Math.max(100, Math.floor(sessionTtlMs / 2));
    let wait = period;
    while (!lost.signal.aborted) {
      await sleep(Math.min(wait, this.#fenceDeadline() - Date.now()), lost.signal);
      if (lost.signal.aborted) return;
      try {
        if (!(await consul.sessionRenew(session))) {
          logger.warn("session expired; stepping down", { id: this.instanceId });
          lost.abort();
          return;
        }
        this.#lastRenewOk = Date.now();
        wait = period;
      } catch (error) {
        logger.warn("cannot renew session", { error: errorMessage(error) });
        wait = Math.min(period, RETRY_MS);
      }
      if (Date.now() >= this.#fenceDeadline()) {
        logger.error("no session renewal for a whole TTL; stepping down", { id: this.instanceId });
        lost.abort();
        return;
      }
    }
  }

  /** Long enough for the old holder's parked blocking read to return, short next to the 2×TTL bound. */
  #invalidationGraceMs(): number {
    return Math.min(INVALIDATION_GRACE_MAX_MS, Math.floor(this.#options.sessionTtlMs / 10));
  }

  #fenceDeadline(): number {
    return this.#lastRenewOk + this.#options.sessionTtlMs;
  }

  /**
   * Leads while the lock key names our session; steps down the moment it does not (before trying
   * to take it again), and acquires it whenever it is free.
   */
  async #contend(session: string, lost: AbortSignal): Promise<void> {
    const { consul, layout, instanceId, address, logger } = this.#options;
    const value: LockValue = address ? { id: instanceId, address } : { id: instanceId };
    const self: LeaderInfo = address ? { id: instanceId, address } : { id: instanceId };
    let index = 0;
    while (!lost.aborted) {
      const pair = await this.#readLock(index, lost);
      if (lost.aborted) return;
      index = pair.index;
      const holder = pair.value;
      if (holder?.session === session) {
        this.#leader = self;
        continue;
      }
      if (this.#isLeader) {
        logger.warn("lost leadership lock", { id: instanceId });
        this.#setLeader(false);
      }
      if (holder?.session) {
        this.#leader = parseLockValue(holder.value);
        continue;
      }
      this.#leader = undefined;
      if (!holder) {
        // A missing key means the holder's session was invalidated (behavior "delete"); a graceful
        // release leaves the key in place. Wait a moment so the old holder sees it and steps down first.
        await sleep(this.#invalidationGraceMs(), lost);
        if (lost.aborted) return;
      }
      if (await consul.kvPut(layout.leaderKey, JSON.stringify(value), { acquire: session })) {
        if (lost.aborted) return;
        logger.info("acquired leadership lock", { id: instanceId });
        this.#leader = self;
        this.#setLeader(true);
      }
      index = 0;
    }
  }

  /** A blocking read of the lock key; returns at once when `index` is 0. */
  async #readLock(index: number, signal: AbortSignal): Promise<{ index: number; value: KvPair | undefined }> {
    const { consul, layout } = this.#options;
    const result = await consul.query(consulQuery(`/v1/kv/${layout.leaderKey}`), { index, wait: "5m", signal })
      .catch((error: unknown) => {
        if (signal.aborted) return { data: undefined, index };
        throw error;
      });
    const entry = Array.isArray(result.data) ? (result.data[0] as Record<string, unknown> | undefined) : undefined;
    if (!entry) return { index: result.index, value: undefined };
    return {
      index: result.index,
      value: {
        key: String(entry["Key"]),
        value: entry["Value"] ? decodeBase64Utf8(String(entry["Value"])) : "",
        flags: 0n,
        createIndex: Number(entry["CreateIndex"]),
        modifyIndex: Number(entry["ModifyIndex"]),
        lockIndex: Number(entry["LockIndex"]),
        ...(entry["Session"] ? { session: String(entry["Session"]) } : {}),
      },
    };
  }

  #setLeader(isLeader: boolean): void {
    if (this.#isLeader === isLeader || (isLeader && this.#stopping.signal.aborted)) return;
    this.#isLeader = isLeader;
    for (const listener of this.#listeners) listener(isLeader);
  }
}

function parseLockValue(raw: string): LeaderInfo | undefined {
  try {
    const value = JSON.parse(raw) as LockValue;
    return value.address ? { id: value.id, address: value.address } : { id: value.id };
  } catch {
    return undefined;
  }
}

function decodeBase64Utf8(base64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
}
