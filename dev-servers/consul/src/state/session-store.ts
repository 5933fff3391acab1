/**
 * @module Sessions: creation checks, TTL timers (armed at TTL×2 like Consul), and invalidation that
 * releases or deletes held keys and starts their lock-delay.
 */
import { serverError } from "../api-error.ts";
import type { CatalogStore } from "./catalog-store.ts";
import type { KvStore } from "./kv-store.ts";
import type { Session } from "./types.ts";
import type { WriteTx } from "./write-tx.ts";

/** Consul's MaxLockDelay. */
const MAX_LOCK_DELAY_NS = 60e9;

export type NewSession = Omit<Session, "createIndex" | "modifyIndex">;

export class SessionStore {
  readonly sessions: Map<string, Session> = new Map();
  tableIndex = 0;
  readonly #kv: KvStore;
  readonly #catalog: CatalogStore;

  constructor(kv: KvStore, catalog: CatalogStore) {
    this.#kv = kv;
    this.#catalog = catalog;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  list(): Session[] {
    return [...this.sessions.values()].sort((a, b) => a.createIndex - b.createIndex || (a.id < b.id ? -1 : 1));
  }

  /** Validates node and checks like Consul's validateSessionChecksTxn, then stores. */
  create(tx: WriteTx, session: NewSession): Session {
    if (!this.#catalog.getNode(session.node)) throw serverError("Missing node registration");
    const checkIds = [...session.nodeChecks, ...(session.serviceChecks ?? []).map((c) => c.ID)];
    for (const checkId of checkIds) {
      const check = this.#catalog.getCheck(session.node, checkId);
      if (!check) throw serverError(`Missing check '${checkId}' registration`);
      if (check.status === "critical") throw serverError(`Check '${checkId}' is in critical state`);
    }
    const stored: Session = { ...session, createIndex: tx.index, modifyIndex: tx.index };
    this.sessions.set(stored.id, stored);
    this.#touch(tx);
    return stored;
  }

  /** Destroys the session and applies its behavior to held keys. Unknown IDs are a no-op. */
  invalidate(tx: WriteTx, id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    this.#touch(tx);
    const delayNs = Math.min(session.lockDelayNs, MAX_LOCK_DELAY_NS);
    for (const entry of this.#kv.heldBy(id)) {
      if (session.behavior === "delete") this.#kv.delete(tx, entry.key);
      else this.#kv.releaseHeld(tx, entry.key);
      if (delayNs > 0) this.#kv.lockDelays.set(entry.key, Date.now() + delayNs / 1e6);
    }
    return true;
  }

  /** Sessions that depend on a node check or service check (for invalidation when it goes critical). */
  dependingOn(node: string, checkId: string): Session[] {
    const wanted = node.toLowerCase();
    return [...this.sessions.values()].filter((s) =>
      s.node.toLowerCase() === wanted &&
      (s.nodeChecks.includes(checkId) || (s.serviceChecks ?? []).some((c) => c.ID === checkId))
    );
  }

  ofNode(node: string): Session[] {
    const wanted = node.toLowerCase();
    return this.list().filter((s) => s.node.toLowerCase() === wanted);
  }

  #touch(tx: WriteTx): void {
    this.tableIndex = tx.index;
    tx.topics.add("sessions");
  }
}
