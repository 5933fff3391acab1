/**
 * @module Who may run tasks. Standalone, this instance always leads; with high availability
 * (plugins/ha-consul) one instance of the cluster leads and the others stand by.
 */
import type { TaskOwnership } from "./task-ownership.ts";

export interface LeaderInfo {
  readonly id: string;
  /** Advertised `high_availability.instance.address`, if the leader configured one. */
  readonly address?: string;
}

export interface Leadership {
  /** This instance's id (`id` in config, default `cts-<hostname>`). */
  readonly instanceId: string;
  isLeader(): boolean;
  /** Called with true when this instance becomes leader, false when it steps down. */
  subscribe(listener: (isLeader: boolean) => void): () => void;
  /**
   * The current leader, if known (for follower redirects and cluster status). This instance only
   * while `isLeader()`: an instance never names itself leader without holding the lock.
   */
  leader(): LeaderInfo | undefined;
  /**
   * While the leader cannot be confirmed (Consul unreachable), the epoch ms since when; `leader()`
   * is then the leader last confirmed. Undefined while it is current.
   */
  leaderStaleSince?(): number | undefined;
  /**
   * Set in the shared cluster mode, where every instance "leads" (loads and
   * watches every task) but runs only the tasks it owns. Unset: the leader runs every task.
   */
  readonly ownership?: TaskOwnership;
}
