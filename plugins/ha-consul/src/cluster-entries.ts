/**
 * @module The shared cluster's KV entries as read from one recursive blocking query (key, decoded
 * value, holding session), and the seeding of configured tasks into the store.
 */
import type { ConsulClient, LeaderInfo, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { type DamagedRecords, decodeRecord } from "./damaged-records.ts";
import type { KvLayout } from "./kv-layout.ts";

export interface Entry {
  readonly key: string;
  readonly value: string;
  readonly session?: string;
}

export function toEntry(raw: Record<string, unknown>): Entry {
  const value = raw["Value"] ? new TextDecoder().decode(Uint8Array.from(atob(String(raw["Value"])), (c) => c.charCodeAt(0))) : "";
  return { key: String(raw["Key"]), value, ...(raw["Session"] ? { session: String(raw["Session"]) } : {}) };
}

/**
 * The instance a held lock's value names (`leader`, `members/<id>`, `owners/<task>`); undefined when
 * the value is damaged, which is reported by key (damaged-records.ts) until a good value is seen.
 */
export function decodeHolder(kind: "leader" | "member" | "owner", key: string, raw: string, damaged?: DamagedRecords): LeaderInfo | undefined {
  const decoded = decodeRecord<LeaderInfo>(kind, raw);
  if ("error" in decoded) {
    damaged?.report({
      key, kind, ...(kind === "owner" ? { task: key.slice(key.lastIndexOf("/") + 1) } : {}), error: decoded.error,
      action: "its holder writes it anew; until then the instance it names is unknown",
    });
    return undefined;
  }
  damaged?.cleared(key);
  const value = decoded.value;
  return typeof value.address === "string" && value.address ? { id: value.id, address: value.address } : { id: value.id };
}

/** Shared mode: every configured task is in the store (created only if absent, `cas=0`, so stored runs stay). */
export async function seedConfiguredTasks(consul: ConsulClient, layout: KvLayout, tasks: readonly TaskConfig[]): Promise<void> {
  // One read first: after the first instance seeded, a restart writes nothing.
  const stored = new Set((await consul.kvList(layout.tasksPrefix)).map((pair) => pair.key));
  for (const config of tasks) {
    const key = layout.taskKey(config.name);
    if (!stored.has(key)) await consul.kvPut(key, JSON.stringify({ config }), { cas: 0 });
  }
}
