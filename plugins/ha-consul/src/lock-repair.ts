/**
 * @module A lock this instance holds whose value is not what it wrote (edited or truncated by hand):
 * the holder reports it by key and writes its value anew (a re-acquire by the holding session only
 * updates the value), so the other instances can name it again.
 */
import type { ConsulClient } from "../../../core/plugin-api/mod.ts";
import type { Entry } from "./cluster-entries.ts";
import { type DamagedRecords, decodeRecord } from "./damaged-records.ts";
import type { InstanceSession } from "./instance-session.ts";

export async function repairHeldValue(
  consul: ConsulClient, session: InstanceSession, held: Entry, expected: string, kind: "leader" | "member" | "owner", damaged?: DamagedRecords,
): Promise<void> {
  if (held.value === expected) return damaged?.cleared(held.key);
  const decoded = decodeRecord(kind, held.value);
  damaged?.report({
    key: held.key, kind, ...(kind === "owner" ? { task: held.key.slice(held.key.lastIndexOf("/") + 1) } : {}),
    error: "error" in decoded ? decoded.error : "its value is not the one its holder wrote",
    action: "written anew by its holder",
  });
  // A failed write is tried again on the next read of the lock.
  await session.exclusive(() => consul.kvPut(held.key, expected, { acquire: session.id })).catch(() => false);
}

/** The shared cluster's member and owner locks this session holds, each repaired as above. */
export async function repairOwnEntries(
  consul: ConsulClient, session: InstanceSession, entries: readonly Entry[], kind: "member" | "owner", expected: string, damaged?: DamagedRecords,
): Promise<void> {
  for (const entry of entries) {
    if (session.isOwn(entry.session)) await repairHeldValue(consul, session, entry, expected, kind, damaged);
  }
}
