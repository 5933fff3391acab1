/**
 * @module The KV table: entries, tombstones (so a prefix index never goes backwards when its newest
 * key is deleted) and lock-delays. Pure data operations; sessions are validated by the caller.
 */
import { type Uint64, ZERO_U64 } from "../exact-json.ts";
import type { KvEntry } from "./types.ts";
import type { WriteTx } from "./write-tx.ts";

export interface KvWrite {
  readonly key: string;
  readonly value: string | null;
  readonly flags?: Uint64;
}

export class KvStore {
  readonly entries: Map<string, KvEntry> = new Map();
  readonly tombstones: Map<string, number> = new Map();
  /** key → wall-clock ms until which `acquire` is refused. */
  readonly lockDelays: Map<string, number> = new Map();
  /** Max index of any KV write, deletes included. */
  tableIndex = 0;

  get(key: string): KvEntry | undefined {
    return this.entries.get(key);
  }

  /** Entries under `prefix`, sorted by key. */
  list(prefix: string): KvEntry[] {
    const out: KvEntry[] = [];
    for (const entry of this.entries.values()) if (entry.key.startsWith(prefix)) out.push(entry);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Max ModifyIndex of entries and tombstones under `prefix` (Consul's kvsListTxn rule). */
  prefixIndex(prefix: string): number {
    let max = 0;
    for (const entry of this.entries.values()) {
      if (entry.modifyIndex > max && entry.key.startsWith(prefix)) max = entry.modifyIndex;
    }
    for (const [key, index] of this.tombstones) {
      if (index > max && key.startsWith(prefix)) max = index;
    }
    return max;
  }

  #put(tx: WriteTx, entry: KvEntry): void {
    this.entries.set(entry.key, entry);
    this.tombstones.delete(entry.key);
    this.tableIndex = Math.max(this.tableIndex, entry.modifyIndex);
    tx.kvKeys.add(entry.key);
  }

  /** A plain set: keeps CreateIndex, LockIndex and the holding session; unchanged ⇒ no new index. */
  set(tx: WriteTx, write: KvWrite): void {
    const existing = this.entries.get(write.key);
    const flags = write.flags ?? ZERO_U64;
    if (existing && existing.value === write.value && existing.flags.digits === flags.digits) return;
    const index = tx.index;
    this.#put(tx, {
      key: write.key, value: write.value, flags,
      lockIndex: existing?.lockIndex ?? 0, session: existing?.session ?? "",
      createIndex: existing?.createIndex ?? index, modifyIndex: index,
    });
  }

  /** cas=0: only if absent; otherwise only if ModifyIndex matches. */
  cas(tx: WriteTx, write: KvWrite, casIndex: number): boolean {
    const existing = this.entries.get(write.key);
    if (casIndex === 0 ? existing !== undefined : existing?.modifyIndex !== casIndex) return false;
    this.set(tx, write);
    return true;
  }

  lockDelayActive(key: string, now = Date.now()): boolean {
    const until = this.lockDelays.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.lockDelays.delete(key);
    return false;
  }

  /** Acquire for a session the caller already validated; false if held by another or delayed. */
  lock(tx: WriteTx, write: KvWrite, session: string): boolean {
    if (this.lockDelayActive(write.key)) return false;
    const existing = this.entries.get(write.key);
    if (existing && existing.session !== "" && existing.session !== session) return false;
    const index = tx.index;
    const reacquire = existing?.session === session;
    this.#put(tx, {
      key: write.key, value: write.value, flags: write.flags ?? ZERO_U64,
      lockIndex: (existing?.lockIndex ?? 0) + (reacquire ? 0 : 1), session,
      createIndex: existing?.createIndex ?? index, modifyIndex: index,
    });
    return true;
  }

  /** Release: only by the holder; the value and flags are overwritten by the request's. */
  unlock(tx: WriteTx, write: KvWrite, session: string): boolean {
    const existing = this.entries.get(write.key);
    if (!existing || existing.session !== session) return false;
    this.#put(tx, {
      ...existing, value: write.value, flags: write.flags ?? ZERO_U64, session: "", modifyIndex: tx.index,
    });
    return true;
  }

  /** Session invalidation with behavior "release": value kept, session cleared. */
  releaseHeld(tx: WriteTx, key: string): void {
    const existing = this.entries.get(key);
    if (existing) this.#put(tx, { ...existing, session: "", modifyIndex: tx.index });
  }

  delete(tx: WriteTx, key: string): void {
    if (!this.entries.has(key)) return;
    this.entries.delete(key);
    const index = tx.index;
    this.tombstones.set(key, index);
    this.tableIndex = Math.max(this.tableIndex, index);
    tx.kvKeys.add(key);
  }

  /** Deletes only when ModifyIndex matches; a missing key answers true (Consul's kvsDeleteCASTxn). */
  deleteCas(tx: WriteTx, key: string, casIndex: number): boolean {
    const existing = this.entries.get(key);
    if (!existing) return true;
    if (existing.modifyIndex !== casIndex) return false;
    this.delete(tx, key);
    return true;
  }

  deleteTree(tx: WriteTx, prefix: string): void {
    for (const entry of this.list(prefix)) this.delete(tx, entry.key);
  }

  /** Keys the session holds (for invalidation). */
  heldBy(session: string): KvEntry[] {
    const out: KvEntry[] = [];
    for (const entry of this.entries.values()) if (entry.session === session) out.push(entry);
    return out;
  }
}

