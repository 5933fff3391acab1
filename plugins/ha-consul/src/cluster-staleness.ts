/**
 * @module What `/v1/status/cluster` says about its own freshness (beyond CTS). Its members are read
 * from Consul within a bound (cluster-status.ts); while Consul is unreachable it answers at once with
 * the members last read (`members_as_of`), a `consul` state, and the leader last confirmed, marked
 * `stale` with its age: a client must not take an old view for a current one.
 */
import { errorMessage, type ConsulClient, type LeaderInfo, type Leadership } from "../../../core/plugin-api/mod.ts";
import type { HealthEntry } from "./cluster-status.ts";

export interface HealthRead {
  readonly entries: readonly HealthEntry[];
  /** True when Consul answered this read. */
  readonly fresh: boolean;
  /** When the entries were read (epoch ms); undefined when they never were. */
  readonly asOf?: number;
  readonly error?: string;
}

/** The last members read from Consul, to answer with while it is unreachable. */
export class LastKnownHealth {
  #entries: readonly HealthEntry[] = [];
  #at: number | undefined;

  async read(fetch: () => Promise<readonly HealthEntry[]>): Promise<HealthRead> {
    try {
      const entries = await fetch();
      this.#entries = entries;
      this.#at = Date.now();
      return { entries, fresh: true, asOf: this.#at };
    } catch (error) {
      return { entries: this.#entries, fresh: false, ...(this.#at !== undefined ? { asOf: this.#at } : {}), error: errorMessage(error) };
    }
  }
}

/** The freshness fields of `/v1/status/cluster` (`ClusterStatus`). */
export interface ClusterFreshness {
  readonly consul: { readonly reachable: boolean; readonly since?: string; readonly error?: string };
  /** Only while Consul is unreachable: when the members were last read (null: never). */
  readonly members_as_of?: string | null;
  readonly leader?: LeaderInfo & { readonly stale: boolean; readonly stale_seconds?: number };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function clusterFreshness(consul: ConsulClient, leadership: Leadership, health: HealthRead, now = Date.now()): ClusterFreshness {
  const state = consul.connectionState();
  const leader = leadership.leader();
  const staleSince = leadership.leaderStaleSince?.() ?? (health.fresh ? undefined : state.healthy ? now : state.since);
  return {
    consul: health.fresh
      ? { reachable: true }
      : { reachable: false, since: iso(state.healthy ? now : state.since), ...(health.error ? { error: health.error } : {}) },
    ...(health.fresh ? {} : { members_as_of: health.asOf !== undefined ? iso(health.asOf) : null }),
    ...(leader
      ? {
        leader: {
          ...leader,
          stale: staleSince !== undefined && !leadership.isLeader(),
          ...(staleSince !== undefined && !leadership.isLeader() ? { stale_seconds: Math.max(0, Math.round((now - staleSince) / 1000)) } : {}),
        },
      }
      : {}),
  };
}
