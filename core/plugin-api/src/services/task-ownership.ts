/**
 * @module Which instance runs which task. Standalone and in CTS's single-leader HA mode there is no
 * TaskOwnership: the leader runs every task. In the shared cluster mode (plugins/ha-consul,
 * `high_availability.cluster.mode = "shared"`) every task is owned through its own Consul lock, and
 * the engine runs a task only while this instance owns it.
 */
import type { LeaderInfo } from "./leadership.ts";

export interface TaskOwnership {
  /** True while this instance holds the task's lock (a run may start only then). */
  owns(task: string): boolean;
  /** The instance holding the task's lock, if any (for redirects and status). */
  ownerOf(task: string): LeaderInfo | undefined;
  /**
   * Told when this instance gains (true) or loses (false) a task. On a loss the lock is released
   * only after the returned promise settles: the engine lets the task's current run end first, so
   * runs of one task never overlap across instances.
   */
  subscribe(listener: (task: string, owned: boolean) => void | Promise<void>): () => void;
}
