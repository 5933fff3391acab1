/**
 * @module The shared cluster mode (`high_availability.cluster.mode = "shared"`, beyond CTS): every
 * instance runs a share of the tasks, each task owned through its own Consul lock.
 *
 * Each instance holds `members/<id>` with its session (so the live members are the held member
 * keys) and `owners/<task>` for each task it owns. On every change to the members or the owners
 * (ownership-watch.ts) it ranks the live members for each stored task by rendezvous hashing; it
 * acquires the free tasks it ranks first for, and releases the ones it no longer does, but only
 * after the engine let their current run end (task-locks.ts). A task's lock is taken only
 * when free (released, or deleted with a dead owner's session), so two runs of a task never overlap.
 *
 * Every instance "leads" (Leadership) while its member key is held: the engine loads and watches
 * every task, so the API lists them all, and runs only the owned ones.
 */
import {
  errorMessage, sleep, type ConsulClient, type LeaderInfo, type Leadership, type Logger, type TaskOwnership,
} from "../../../core/plugin-api/mod.ts";
import { decodeHolder } from "./cluster-entries.ts";
import type { DamagedRecords } from "./damaged-records.ts";
import { InstanceSession, RETRY_MS } from "./instance-session.ts";
import { repairOwnEntries } from "./lock-repair.ts";
import type { KvLayout } from "./kv-layout.ts";
import { followOwnership, type OwnershipSnapshot } from "./ownership-watch.ts";
import { instanceSessionName } from "./previous-sessions.ts";
import { rendezvousOwner } from "./rendezvous.ts";
import { TaskLocks } from "./task-locks.ts";

export interface SharedClusterOptions {
  readonly consul: ConsulClient;
  readonly layout: KvLayout;
  readonly clusterName: string;
  readonly instanceId: string;
  readonly address?: string;
  readonly sessionTtlMs: number;
  readonly checkId?: string;
  /** See `InstanceSessionOptions.checkTrustedFrom`. */
  readonly checkTrustedFrom?: number;
  readonly logger: Logger;
  /**
   * Runs before this instance counts as a member: puts every configured task that is missing into
   * the store, so no instance's engine loads a half-seeded store while another seeds it.
   */
  readonly seed?: () => Promise<void>;
  /** How often the task names are re-read without a membership or ownership change (default a minute). */
  readonly taskNamesRefreshMs?: number;
  /** Where a damaged member or owner value is reported. */
  readonly damaged?: DamagedRecords;
}

export class SharedCluster implements Leadership {
  readonly instanceId: string;
  readonly ownership: TaskOwnership;
  readonly #options: SharedClusterOptions;
  readonly #self: LeaderInfo;
  readonly #leaderListeners = new Set<(isLeader: boolean) => void>();
  readonly #stopping = new AbortController();
  readonly #locks: TaskLocks;
  #active = false;
  #session: InstanceSession | undefined;
  #running: Promise<void> | undefined;

  constructor(options: SharedClusterOptions) {
    this.#options = options;
    this.instanceId = options.instanceId;
    this.#self = options.address ? { id: options.instanceId, address: options.address } : { id: options.instanceId };
    this.#locks = new TaskLocks(options.consul, options.layout, options.logger, this.#self);
    this.ownership = this.#locks.ownership;
  }

  isLeader(): boolean {
    return this.#active;
  }

  /** No single leader in this mode. */
  leader(): LeaderInfo | undefined {
    return undefined;
  }

  subscribe(listener: (isLeader: boolean) => void): () => void {
    this.#leaderListeners.add(listener);
    return () => this.#leaderListeners.delete(listener);
  }

  /** The owner of every task, as last read (for the cluster status). */
  owners(): ReadonlyMap<string, LeaderInfo> {
    return this.#locks.owners;
  }

  /**
   * The owner of every held task as Consul has it now (one read of `owners/`), for the cluster
   * status: the in-memory view above trails Consul by a blocking read and a reconcile, and right
   * after a join or a rebalance it would name a previous owner or none.
   */
  async readOwners(): Promise<ReadonlyMap<string, LeaderInfo>> {
    const { consul, layout } = this.#options;
    const owners = new Map<string, LeaderInfo>();
    for (const pair of await consul.kvList(layout.ownersPrefix)) {
      if (pair.session) owners.set(pair.key.slice(layout.ownersPrefix.length), this.#holder("owner", pair));
    }
    return owners;
  }

  start(): void {
    this.#running ??= this.#campaign();
  }

  prepareStop(): void {
    void this.#session?.unbind().catch(() => {});
  }

  /** After the engine drained: releases every task and the member key, so the others take over at once. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#setActive(false);
    await this.#running?.catch(() => {});
  }

  async #campaign(): Promise<void> {
    const { logger } = this.#options;
    const stopping = this.#stopping.signal;
    while (!stopping.aborted) {
      const lost = new AbortController();
      const onStop = () => lost.abort();
      stopping.addEventListener("abort", onStop, { once: true });
      const session = this.#newSession();
      this.#session = session;
      try {
        await session.open();
        const renewing = session.keepAlive(lost);
        try {
          if (await this.#join(session)) await this.#follow(session, lost.signal);
        } finally {
          this.#setActive(false);
          lost.abort();
          await renewing;
        }
      } catch (error) {
        if (!stopping.aborted) logger.warn("shared cluster membership interrupted; retrying", { error: errorMessage(error) });
      } finally {
        stopping.removeEventListener("abort", onStop);
        this.#setActive(false);
        await this.#leave(session);
      }
      if (!stopping.aborted) await sleep(RETRY_MS, stopping);
    }
  }

  #newSession(): InstanceSession {
    const { consul, instanceId, sessionTtlMs, checkId, checkTrustedFrom, logger, layout } = this.#options;
    const value = JSON.stringify(this.#self);
    return new InstanceSession({
      consul,
      name: instanceSessionName(layout, instanceId),
      ttlMs: sessionTtlMs,
      checkId,
      ...(checkTrustedFrom !== undefined ? { checkTrustedFrom } : {}),
      logger,
      heldLocks: () => [
        { key: `${layout.membersPrefix}${instanceId}`, value },
        ...this.#locks.held().map((task) => ({ key: `${layout.ownersPrefix}${task}`, value })),
      ],
    });
  }

  /**
   * Takes the member key. One held by an earlier session under this id is this instance's previous
   * life (ids are unique in a cluster; a restart on the same port keeps the check passing): that
   * session is destroyed so its tasks free up now rather than at its TTL.
   */
  async #join(session: InstanceSession): Promise<boolean> {
    const { consul, layout, instanceId, logger } = this.#options;
    const key = `${layout.membersPrefix}${instanceId}`;
    for (;;) {
      if (this.#stopping.signal.aborted) return false;
      if (await session.exclusive(() => consul.kvPut(key, JSON.stringify(this.#self), { acquire: session.id }))) break;
      const stale = (await consul.kvGet(key))?.session;
      if (stale && !session.isOwn(stale)) {
        logger.info("destroying the session of this instance's previous run", { id: instanceId });
        await consul.sessionDestroy(stale);
      }
      await sleep(100, this.#stopping.signal);
    }
    await this.#options.seed?.();
    logger.info("joined the shared cluster", { id: instanceId });
    this.#setActive(true);
    return true;
  }

  /**
   * Follows what ownership needs (ownership-watch.ts: members, owners, then task names), never the run
   * records, events or task state; every change is reconciled. A failed read is retried, never a
   * reason to let go: tasks are released only when the engine let their run end (or when the session
   * is gone, which releases them in Consul).
   */
  async #follow(session: InstanceSession, signal: AbortSignal): Promise<void> {
    const { consul, layout, logger, taskNamesRefreshMs } = this.#options;
    await followOwnership(consul, layout, logger, signal, (snapshot) => this.#reconcile(session, snapshot, signal), taskNamesRefreshMs);
  }

  /**
   * Returns false when this instance is no longer a member (its session is gone). The parts of the
   * snapshot are read apart, and the owners part may predate this instance's own latest writes: a
   * lock that part shows held by us is taken as ours only after a fresh read of its key says so.
   */
  async #reconcile(session: InstanceSession, snapshot: OwnershipSnapshot, signal: AbortSignal): Promise<boolean> {
    const { consul, layout, instanceId } = this.#options;
    const members = snapshot.members.filter((entry) => entry.session).map((entry) => entry.key.slice(layout.membersPrefix.length));
    const holders = new Map(snapshot.owners.map((entry) => [entry.key.slice(layout.ownersPrefix.length), entry]));
    const tasks = snapshot.tasks;
    if (!members.includes(instanceId)) return false;
    this.#locks.readOwners(new Map([...holders].filter(([, entry]) => entry.session).map(([task, entry]) => [task, this.#holder("owner", entry)])));
    for (const entry of snapshot.members) if (entry.session && !session.isOwn(entry.session)) this.#holder("member", entry);
    await repairOwnEntries(consul, session, snapshot.members, "member", JSON.stringify(this.#self), this.#options.damaged);
    await repairOwnEntries(consul, session, snapshot.owners, "owner", JSON.stringify(this.#self), this.#options.damaged);
    this.#locks.showOwned();
    const free: string[] = [];
    for (const task of tasks) {
      if (signal.aborted) return false;
      const wanted = rendezvousOwner(task, members) === instanceId;
      const holder = holders.get(task)?.session;
      const settled = this.#locks.settled(task);
      if (wanted && !holder && !settled) free.push(task);
      else if (wanted && session.isOwn(holder) && !settled) {
        if (session.isOwn((await consul.kvGet(`${layout.ownersPrefix}${task}`))?.session)) this.#locks.gain(task);
      } else if (!wanted && this.#locks.owns(task)) this.#locks.release(session, task);
    }
    for (const task of this.#locks.owned()) if (!tasks.has(task)) this.#locks.release(session, task);
    if (free.length > 0 && !signal.aborted) await this.#locks.acquire(session, free);
    return true;
  }

  /** Who holds a member or owner lock; "unknown" (reported) when its value is damaged. */
  #holder(kind: "member" | "owner", entry: { readonly key: string; readonly value: string }): LeaderInfo {
    return decodeHolder(kind, entry.key, entry.value, this.#options.damaged) ?? { id: "unknown" };
  }

  /** Session gone or stopping: no task may start here; locks still held are released, then the session destroyed. */
  async #leave(session: InstanceSession): Promise<void> {
    const { consul, layout, instanceId } = this.#options;
    const owned = await this.#locks.letGoAll();
    // Only a stop has locks to hand back: otherwise the session is gone (its keys went with it) or
    // Consul is unreachable, and each release would only fail.
    if (this.#stopping.signal.aborted) {
      const keys = [...owned.map((task) => `${layout.ownersPrefix}${task}`), `${layout.membersPrefix}${instanceId}`];
      for (const id of session.sessions()) {
        for (const key of keys) await consul.kvPut(key, "", { release: id }).catch(() => false);
      }
    }
    await session.close();
  }

  #setActive(active: boolean): void {
    if (this.#active === active || (active && this.#stopping.signal.aborted)) return;
    this.#active = active;
    for (const listener of this.#leaderListeners) listener(active);
  }
}
