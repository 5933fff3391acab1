/**
 * @module The task locks one shared-cluster instance holds (`owners/<task>`): taking free ones 64 to
 * a transaction, letting one go only after the engine let its run end, the owner of every task as
 * last read, and the TaskOwnership face the engine asks before each run.
 */
import { errorMessage, type ConsulClient, type LeaderInfo, type Logger, type TaskOwnership } from "../../../core/plugin-api/mod.ts";
import type { InstanceSession } from "./instance-session.ts";
import type { KvLayout } from "./kv-layout.ts";

/** Consul's txn limit is 64 operations. */
const ACQUIRE_BATCH = 64;

type OwnershipListener = (task: string, owned: boolean) => void | Promise<void>;

export class TaskLocks {
  readonly ownership: TaskOwnership;
  readonly #consul: ConsulClient;
  readonly #layout: KvLayout;
  readonly #logger: Logger;
  readonly #self: LeaderInfo;
  readonly #listeners = new Set<OwnershipListener>();
  /** Tasks this instance holds and may run. */
  readonly #owned = new Set<string>();
  /** Tasks being let go: still held until their run ended. */
  readonly #releasing = new Map<string, Promise<void>>();
  #owners = new Map<string, LeaderInfo>();

  constructor(consul: ConsulClient, layout: KvLayout, logger: Logger, self: LeaderInfo) {
    this.#consul = consul;
    this.#layout = layout;
    this.#logger = logger;
    this.#self = self;
    this.ownership = {
      owns: (task) => this.#owned.has(task),
      ownerOf: (task) => this.#owners.get(task),
      subscribe: (listener) => {
        this.#listeners.add(listener);
        return () => this.#listeners.delete(listener);
      },
    };
  }

  /** The owner of every task, as last read. */
  get owners(): ReadonlyMap<string, LeaderInfo> {
    return this.#owners;
  }
  /** Replaces the owners view with what Consul was read to hold. */
  readOwners(owners: Map<string, LeaderInfo>): void {
    this.#owners = owners;
  }
  /** Names this instance as the owner of each task it holds (the read may predate its own writes). */
  showOwned(): void {
    for (const task of this.#owned) this.#owners.set(task, this.#self);
  }

  owns(task: string): boolean {
    return this.#owned.has(task);
  }
  /** Held or being let go: nothing is to be taken or released for it now. */
  settled(task: string): boolean {
    return this.#owned.has(task) || this.#releasing.has(task);
  }
  /** Every task whose lock this instance holds, let-go ones included until their run ended. */
  held(): string[] {
    return [...this.#owned, ...this.#releasing.keys()];
  }
  owned(): string[] {
    return [...this.#owned];
  }

  /**
   * Takes free tasks 64 to a transaction (one write, one wake-up of the other members, instead of
   * one per task); when one of a batch was taken meanwhile the batch is tried key by key.
   */
  async acquire(session: InstanceSession, tasks: readonly string[]): Promise<void> {
    const value = JSON.stringify(this.#self);
    const prefix = this.#layout.ownersPrefix;
    for (let at = 0; at < tasks.length; at += ACQUIRE_BATCH) {
      const batch = tasks.slice(at, at + ACQUIRE_BATCH);
      await session.exclusive(async () => {
        const ops = batch.map((task) => ({ verb: "lock", key: `${prefix}${task}`, value, session: session.id }) as const);
        if (await this.#consul.kvTxn(ops)) {
          for (const task of batch) this.gain(task);
          return;
        }
        for (const task of batch) {
          if (await this.#consul.kvPut(`${prefix}${task}`, value, { acquire: session.id })) this.gain(task);
        }
      });
    }
  }

  gain(task: string): void {
    this.#owned.add(task);
    this.#owners.set(task, this.#self);
    for (const listener of this.#listeners) {
      void Promise.resolve().then(() => listener(task, true)).catch(() => {});
    }
  }

  /** Stops runs from starting (owns() is false at once), waits for the engine, then frees the lock. */
  release(session: InstanceSession, task: string): void {
    if (this.#releasing.has(task)) return;
    this.#owned.delete(task);
    const key = `${this.#layout.ownersPrefix}${task}`;
    const releasing = (async () => {
      await this.#tellLost(task);
      // Not while the locks move to another session (instance-session.ts): a release naming the
      // sessions read before the move would miss the lock, which would then stay held by nobody's wish.
      await session.exclusive(async () => {
        for (const id of session.sessions()) await this.#consul.kvPut(key, "", { release: id }).catch(() => false);
      });
    })().catch((error) => this.#logger.warn("cannot release task", { task_name: task, error: errorMessage(error) }))
      .finally(() => this.#releasing.delete(task));
    this.#releasing.set(task, releasing);
  }

  /** The session is going: no held task may run any more; returns them once the engine let go of each. */
  async letGoAll(): Promise<string[]> {
    const owned = [...this.#owned];
    this.#owned.clear();
    for (const task of owned) await this.#tellLost(task);
    await Promise.allSettled([...this.#releasing.values()]);
    return owned;
  }

  async #tellLost(task: string): Promise<void> {
    await Promise.allSettled([...this.#listeners].map((listener) => Promise.resolve().then(() => listener(task, false))));
  }
}
