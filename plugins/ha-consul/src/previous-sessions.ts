/**
 * @module Destroys the sessions a previous run of this instance left behind, found by the session
 * name (`cts-runtime <parent_path>/<cluster> <instance id>`: unique in one Consul, as a cluster's KV
 * root is and instance ids within it are).
 *
 * A process killed with -9 and restarted with the same id (and port) within one check interval
 * re-registers its service and check before the check ever runs against the dead process, so the
 * predecessor's check-bound session stays valid and keeps the leader lock until its TTL (TTL to
 * 2×TTL); destroying it frees the lock at once (behavior "delete" deletes the key).
 */
import { consulQuery, errorMessage, type ConsulClient, type Logger } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";

/**
 * The name of every session an instance creates: how a restart finds its previous run's sessions.
 * It names the cluster's KV root, not only the cluster: two clusters of one name under different
 * parent paths are different clusters, and must not end each other's sessions.
 */
export function instanceSessionName(layout: KvLayout, instanceId: string): string {
  return `cts-runtime ${layout.root} ${instanceId}`;
}

/** Runs once, before this process creates any session: every session under `name` is a predecessor's. */
export async function destroyPreviousSessions(consul: ConsulClient, name: string, logger: Logger): Promise<void> {
  let sessions: { ID?: string; Name?: string }[];
  try {
    sessions = ((await consul.query(consulQuery("/v1/session/list"))).data as { ID?: string; Name?: string }[] | undefined) ?? [];
  } catch (error) {
    // Not allowed to list sessions (ACL) or Consul unreachable: the predecessor's session ends at its TTL, as in CTS.
    logger.warn("cannot list sessions to end this instance's previous run; its lock is freed at its TTL", { error: errorMessage(error) });
    return;
  }
  for (const session of sessions) {
    if (session.Name !== name || !session.ID) continue;
    logger.info("destroying the session of this instance's previous run", { session: session.ID });
    await consul.sessionDestroy(session.ID).catch((error: unknown) =>
      logger.warn("cannot destroy the session of this instance's previous run", { session: session.ID, error: errorMessage(error) })
    );
  }
}
