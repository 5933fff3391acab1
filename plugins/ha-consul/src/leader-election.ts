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
 *
 * With the instance's registration check bound to the session (instance-session.ts), a crash is
 * seen when that check fails: failover then takes at most check interval + timeout plus the pause.
 * A restart under the same id first destroys its previous run's sessions (previous-sessions.ts): a
 * quick restart keeps the check passing, which would otherwise leave the dead run's lock to its TTL.
 */
import {
  consulQuery, errorMessage, sleep, type ConsulClient, type KvPair, type LeaderInfo, type Leadership, type Logger,
} from "../../../core/plugin-api/mod.ts";
import { decodeHolder } from "./cluster-entries.ts";
import type { DamagedRecords } from "./damaged-records.ts";
import { InstanceSession, RETRY_MS } from "./instance-session.ts";
import { repairHeldValue } from "./lock-repair.ts";
import type { KvLayout } from "./kv-layout.ts";
import { destroyPreviousSessions, instanceSessionName } from "./previous-sessions.ts";

export interface LeaderElectionOptions {
  readonly consul: ConsulClient;
  readonly layout: KvLayout;
  readonly clusterName: string;
  readonly instanceId: string;
  readonly address?: string;
  readonly sessionTtlMs: number;
  /** The registration check to bind the session to (undefined: TTL only). */
  readonly checkId?: string;
  /** See `InstanceSessionOptions.checkTrustedFrom`. */
  readonly checkTrustedFrom?: number;
  readonly logger: Logger;
  /** Where a damaged lock value is reported. */
  readonly damaged?: DamagedRecords;
}

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
  #session: InstanceSession | undefined;
  #running: Promise<void> | undefined;

  constructor(options: LeaderElectionOptions) {
    this.#options = options;
    this.instanceId = options.instanceId;
  }

  isLeader(): boolean {
    return this.#isLeader;
  }

  /** Never this instance unless it holds the lock now (after a step-down the holder is unknown until read). */
  leader(): LeaderInfo | undefined {
    if (this.#isLeader) return this.#leader;
    return this.#leader?.id === this.instanceId ? undefined : this.#leader;
  }

  /** A follower's view of the leader is as old as Consul's outage; the leader confirms itself by renewing. */
  leaderStaleSince(): number | undefined {
    const state = this.#options.consul.connectionState();
    return this.#isLeader || state.healthy ? undefined : state.since;
  }

  subscribe(listener: (isLeader: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    this.#running ??= this.#campaign();
  }

  /**
   * The stop has begun (the API is closing, the service will be deregistered): keeps the lock off
   * the health-check-bound session, so it is held until the drained engine lets go in stop().
   */
  prepareStop(): void {
    void this.#session?.unbind().catch(() => {});
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
    await destroyPreviousSessions(consul, this.#sessionName(), logger);
    while (!stopping.aborted) {
      let session: InstanceSession | undefined;
      const lost = new AbortController();
      const onStop = () => lost.abort();
      stopping.addEventListener("abort", onStop, { once: true });
      try {
        session = this.#newSession();
        this.#session = session;
        await session.open();
        const renewing = session.keepAlive(lost);
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
          for (const id of session.sessions()) await consul.kvPut(layout.leaderKey, "", { release: id }).catch(() => false);
          await session.close();
        }
      }
      if (!stopping.aborted) await sleep(RETRY_MS, stopping);
    }
  }

  #sessionName(): string {
    return instanceSessionName(this.#options.layout, this.#options.instanceId);
  }

  #newSession(): InstanceSession {
    const { consul, instanceId, address, sessionTtlMs, checkId, checkTrustedFrom, logger, layout } = this.#options;
    const value: LockValue = address ? { id: instanceId, address } : { id: instanceId };
    return new InstanceSession({
      consul,
      name: this.#sessionName(),
      ttlMs: sessionTtlMs,
      checkId,
      ...(checkTrustedFrom !== undefined ? { checkTrustedFrom } : {}),
      logger,
      heldLocks: () => (this.#isLeader ? [{ key: layout.leaderKey, value: JSON.stringify(value) }] : []),
    });
  }

  /** Long enough for the old holder's parked blocking read to return, short next to the 2×TTL bound. */
  #invalidationGraceMs(): number {
    return Math.min(INVALIDATION_GRACE_MAX_MS, Math.floor(this.#options.sessionTtlMs / 10));
  }

  /**
   * Leads while the lock key names our session; steps down the moment it does not (before trying
   * to take it again), and acquires it whenever it is free.
   */
  async #contend(session: InstanceSession, lost: AbortSignal): Promise<void> {
    const { consul, layout, instanceId, address, logger } = this.#options;
    const value: LockValue = address ? { id: instanceId, address } : { id: instanceId };
    const self: LeaderInfo = address ? { id: instanceId, address } : { id: instanceId };
    // CTS's line (operators tell followers apart: they never log "acquired" after it).
    logger.info("attempting to acquire leadership lock", { lock_path: layout.leaderKey });
    let index = 0;
    while (!lost.aborted) {
      const pair = await this.#readLock(index, lost);
      if (lost.aborted) return;
      index = pair.index;
      const holder = pair.value;
      if (session.isOwn(holder?.session)) {
        this.#leader = self;
        // Our lock's value tells the followers where to redirect: a value changed by hand is written anew.
        await repairHeldValue(consul, session, holder!, JSON.stringify(value), "leader", this.#options.damaged);
        continue;
      }
      if (this.#isLeader) {
        logger.warn("lost leadership lock", { id: instanceId });
        this.#setLeader(false);
      }
      if (holder?.session) {
        this.#leader = decodeHolder("leader", holder.key, holder.value, this.#options.damaged);
        continue;
      }
      this.#leader = undefined;
      if (!holder) {
        // A missing key means the holder's session was invalidated (behavior "delete"); a graceful
        // release leaves the key in place. Wait a moment so the old holder sees it and steps down first.
        await sleep(this.#invalidationGraceMs(), lost);
        if (lost.aborted) return;
      }
      await session.exclusive(async () => {
        if (lost.aborted || !(await consul.kvPut(layout.leaderKey, JSON.stringify(value), { acquire: session.id }))) return;
        if (lost.aborted) return;
        logger.info("acquired leadership lock", { id: instanceId });
        this.#leader = self;
        this.#setLeader(true);
      });
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
    // Stepped down: who holds the lock now is unknown until it is read again.
    if (!isLeader && this.#leader?.id === this.instanceId) this.#leader = undefined;
    for (const listener of this.#listeners) listener(isLeader);
  }
}

function decodeBase64Utf8(base64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
}
