/**
 * @module Everything the dev server knows, and the single write path: `write(fn)` runs a change under
 * one index, then wakes exactly the parked queries whose topics it touched, then reports the change
 * (for the snapshot). Session TTL timers live here because expiry is a write like any other.
 */
import { parseGoDuration } from "../go-duration.ts";
import { CatalogStore } from "./catalog-store.ts";
import { IndexClock } from "./index-clock.ts";
import { KvStore } from "./kv-store.ts";
import { type NewSession, SessionStore } from "./session-store.ts";
import type { CheckStatus, HealthCheck, Session } from "./types.ts";
import { WatchHub } from "./watch-hub.ts";
import { WriteTx } from "./write-tx.ts";

/** Consul's SessionTTLMultiplier: a session is never expired before TTL, at the latest after 2×TTL. */
const SESSION_TTL_MULTIPLIER = 2;

export interface ConsulStateOptions {
  readonly datacenter: string;
  readonly nodeName: string;
  /** The agent node's ID; replaced by the snapshot's when one is loaded. */
  nodeId: string;
  readonly address: string;
}

export class ConsulState {
  readonly datacenter: string;
  readonly nodeName: string;
  /** The agent node's ID; replaced by the snapshot's when one is loaded. */
  nodeId: string;
  readonly address: string;
  readonly clock: IndexClock = new IndexClock();
  readonly hub: WatchHub = new WatchHub();
  readonly kv: KvStore = new KvStore();
  readonly catalog: CatalogStore = new CatalogStore();
  readonly sessions: SessionStore = new SessionStore(this.kv, this.catalog);
  /** Called after every write that changed something (the snapshot writer hooks in here). */
  onChange: (() => void) | undefined;
  readonly #sessionTimers = new Map<string, ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(options: ConsulStateOptions) {
    this.datacenter = options.datacenter;
    this.nodeName = options.nodeName;
    this.nodeId = options.nodeId;
    this.address = options.address;
    // Empty tables report the start index, not 1: after a restart without a snapshot, answers never
    // carry a smaller index than the previous run handed out (the clock moved on meanwhile).
    const start = this.clock.current;
    this.kv.tableIndex = this.sessions.tableIndex = start;
    this.catalog.listIndex = this.catalog.checksIndex = this.catalog.floorIndex = start;
  }

  /** Runs one write; wakes watchers of what it touched. Errors thrown by `fn` still commit what was done. */
  write<T>(fn: (tx: WriteTx) => T): T {
    const tx = new WriteTx(this.clock);
    try {
      return fn(tx);
    } finally {
      this.#commit(tx);
    }
  }

  #commit(tx: WriteTx): void {
    if (tx.kvKeys.size > 0) {
      this.hub.notify(kvTopics(tx.kvKeys));
    }
    if (tx.topics.size > 0) this.hub.notify(tx.topics);
    if (tx.wrote) this.onChange?.();
  }

  /** Sets a check's status; a critical check invalidates the sessions that depend on it. */
  setCheckStatus(tx: WriteTx, node: string, checkId: string, status: CheckStatus, output: string): boolean {
    const ok = this.catalog.setCheckStatus(tx, node, checkId, status, output);
    if (ok && status === "critical") this.invalidateSessionsOf(tx, node, checkId);
    return ok;
  }

  /** Stores a check and applies the critical-invalidates-sessions rule. */
  putCheck(tx: WriteTx, check: Omit<HealthCheck, "createIndex" | "modifyIndex">): void {
    this.catalog.putCheck(tx, check);
    if (check.status === "critical") this.invalidateSessionsOf(tx, check.node, check.checkId);
  }

  deleteCheck(tx: WriteTx, node: string, checkId: string): boolean {
    const ok = this.catalog.deleteCheck(tx, node, checkId);
    if (ok) this.invalidateSessionsOf(tx, node, checkId);
    return ok;
  }

  deleteService(tx: WriteTx, node: string, serviceId: string): boolean {
    const checks = this.catalog.nodeChecks(node).filter((c) => c.serviceId === serviceId);
    const ok = this.catalog.deleteService(tx, node, serviceId);
    for (const check of checks) this.invalidateSessionsOf(tx, node, check.checkId);
    return ok;
  }

  deleteNode(tx: WriteTx, node: string): boolean {
    for (const session of this.sessions.ofNode(node)) this.destroySession(tx, session.id);
    return this.catalog.deleteNode(tx, node);
  }

  invalidateSessionsOf(tx: WriteTx, node: string, checkId: string): void {
    for (const session of this.sessions.dependingOn(node, checkId)) this.destroySession(tx, session.id);
  }

  createSession(tx: WriteTx, session: NewSession): Session {
    const stored = this.sessions.create(tx, session);
    this.#armSessionTimer(stored);
    return stored;
  }

  destroySession(tx: WriteTx, id: string): void {
    clearTimeout(this.#sessionTimers.get(id));
    this.#sessionTimers.delete(id);
    this.sessions.invalidate(tx, id);
  }

  /** Resets the TTL timer; undefined for unknown sessions. Not a write (no index change), as in Consul. */
  renewSession(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session) this.#armSessionTimer(session);
    return session;
  }

  #armSessionTimer(session: Session): void {
    clearTimeout(this.#sessionTimers.get(session.id));
    this.#sessionTimers.delete(session.id);
    const ttlNs = session.ttl === "" ? 0 : parseGoDuration(session.ttl) ?? 0;
    if (ttlNs <= 0 || this.#closed) return;
    const timer = setTimeout(() => {
      this.#sessionTimers.delete(session.id);
      this.write((tx) => this.destroySession(tx, session.id));
    }, (ttlNs / 1e6) * SESSION_TTL_MULTIPLIER);
    this.#sessionTimers.set(session.id, timer);
  }

  /** After a snapshot load: every TTL session gets a fresh full timer. */
  rearmSessionTimers(): void {
    for (const session of this.sessions.sessions.values()) this.#armSessionTimer(session);
  }

  /** Stops timers and wakes every parked query (server stop). */
  close(): void {
    this.#closed = true;
    for (const timer of this.#sessionTimers.values()) clearTimeout(timer);
    this.#sessionTimers.clear();
    this.hub.close();
  }
}

/** `kv:<key>` for single-key readers and `kvp:<prefix>` for every prefix of each key (list readers). */
function* kvTopics(keys: Iterable<string>): Generator<string> {
  for (const key of keys) {
    yield `kv:${key}`;
    for (let i = 0; i <= key.length; i++) yield `kvp:${key.slice(0, i)}`;
  }
}
