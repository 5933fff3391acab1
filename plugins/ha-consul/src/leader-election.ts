/**
 * @module Leader election on a Consul session lock, as the Go client's Lock recipe does it.
 *
 * Timing: the session is renewed every TTL/2. Consul invalidates a session between TTL and 2×TTL
 * after its last renewal, so a crashed leader is replaced within 2×TTL. Lock-delay is 0 because a
 * non-zero delay would push crash failover past 2×TTL; overlap is prevented instead by fencing: a
 * leader that has not renewed successfully for a whole TTL steps down before Consul can have
 * released its lock. A graceful stop releases the lock, so a follower takes over within a second.
 */
import {
  consulQuery, errorMessage, type ConsulClient, type KvPair, type LeaderInfo, type Leadership, type Logger,
} from "../../../core/plugin-api/mod.ts";
import { formatDuration } from "../../../core/config/duration.ts";
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
  #session: string | undefined;
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

  /** Steps down, releases the lock and destroys the session, so a follower takes over at once. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    const session = this.#session;
    if (this.#isLeader && session) {
      await this.#options.consul.kvPut(this.#options.layout.leaderKey, "", { release: session }).catch(() => false);
    }
    this.#setLeader(false);
    if (session) await this.#options.consul.sessionDestroy(session).catch(() => {});
    await this.#running?.catch(() => {});
  }

  async #campaign(): Promise<void> {
    const signal = this.#stopping.signal;
    while (!signal.aborted) {
      try {
        this.#session = await this.#createSession();
        const lost = new AbortController();
        const renewing = this.#renew(this.#session, lost);
        try {
          await this.#contend(this.#session, lost.signal);
        } finally {
          lost.abort();
          await renewing;
        }
      } catch (error) {
        if (signal.aborted) break;
        this.#options.logger.warn("leader election interrupted; retrying", { error: errorMessage(error) });
        await sleep(1000, signal);
      } finally {
        this.#setLeader(false);
      }
    }
  }

  #createSession(): Promise<string> {
    const { consul, clusterName, instanceId, sessionTtlMs } = this.#options;
    this.#lastRenewOk = Date.now();
    return consul.sessionCreate({
      name: `cts-runtime ${clusterName} ${instanceId}`,
      ttl: formatDuration(sessionTtlMs),
      behavior: "delete",
      lockDelay: "0s",
      checks: [],
    });
  }

  /** Renews every TTL/2 until `lost` aborts; aborts `lost` when the session is gone or fencing says so. */
  async #renew(session: string, lost: AbortController): Promise<void> {
    const { consul, sessionTtlMs, logger } = this.#options;
    const period = Math.max(250, Math.floor(sessionTtlMs / 2));
    while (!lost.signal.aborted) {
      await sleep(Math.min(period, this.#fenceDeadline() - Date.now()), lost.signal);
      if (lost.signal.aborted) return;
      try {
        if (!(await consul.sessionRenew(session))) {
          logger.warn("session expired; stepping down", { id: this.instanceId });
          lost.abort();
          return;
        }
        this.#lastRenewOk = Date.now();
      } catch (error) {
        logger.warn("cannot renew session", { error: errorMessage(error) });
      }
      if (Date.now() >= this.#fenceDeadline()) {
        logger.error("no session renewal for a whole TTL; stepping down", { id: this.instanceId });
        lost.abort();
        return;
      }
    }
  }

  #fenceDeadline(): number {
    return this.#lastRenewOk + this.#options.sessionTtlMs;
  }

  /** Acquires the lock whenever it is free; holds leadership while the key still names our session. */
  async #contend(session: string, lost: AbortSignal): Promise<void> {
    const { consul, layout, instanceId, address, logger } = this.#options;
    const value: LockValue = address ? { id: instanceId, address } : { id: instanceId };
    let index = 0;
    while (!lost.aborted) {
      const pair = await this.#readLock(index, lost);
      if (lost.aborted) return;
      index = pair.index;
      const holder = pair.value;
      if (!holder?.session) {
        this.#leader = undefined;
        if (await consul.kvPut(layout.leaderKey, JSON.stringify(value), { acquire: session })) {
          logger.info("acquired leadership lock", { id: instanceId });
          this.#leader = address ? { id: instanceId, address } : { id: instanceId };
          this.#setLeader(true);
        }
        index = 0;
        continue;
      }
      this.#leader = parseLockValue(holder.value);
      if (holder.session !== session && this.#isLeader) {
        logger.warn("lost leadership lock", { id: instanceId });
        this.#setLeader(false);
      }
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
    if (this.#isLeader === isLeader) return;
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
