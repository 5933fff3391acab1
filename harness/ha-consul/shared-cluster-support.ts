/**
 * @module Helpers for the shared cluster mode tests and bench: task blocks, the owners as Consul
 * holds them, and overlapping runs of one task across instances.
 */
import { rendezvousOwner } from "../../plugins/ha-consul/src/rendezvous.ts";
import type { RecordEntry } from "./ha-cluster.ts";

/** One task per name, all watching `service`. */
export function sharedTasksHcl(names: readonly string[], service: string): string {
  return names.map((name) => `task {
  name   = "${name}"
  module = "./mod"
  condition "services" { names = ["${service}"] }
}
`).join("");
}

/** task → owner id, for every `owners/<task>` key held by a session. */
export async function taskOwners(consulUrl: string, cluster: string): Promise<Map<string, string>> {
  const prefix = `consul-terraform-sync/${cluster}/owners/`;
  const response = await fetch(`${consulUrl}/v1/kv/${prefix}?recurse=true`);
  if (response.status === 404) return new Map();
  const entries = (await response.json()) as { Key: string; Value: string | null; Session?: string }[];
  const owners = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.Session || !entry.Value) continue;
    owners.set(entry.Key.slice(prefix.length), (JSON.parse(atob(entry.Value)) as { id: string }).id);
  }
  return owners;
}

/** Ids of the instances whose `members/<id>` key is held (joined, session alive). */
export async function liveMembers(consulUrl: string, cluster: string): Promise<string[]> {
  const prefix = `consul-terraform-sync/${cluster}/members/`;
  const response = await fetch(`${consulUrl}/v1/kv/${prefix}?recurse=true`);
  if (response.status === 404) return [];
  const entries = (await response.json()) as { Key: string; Session?: string }[];
  return entries.filter((entry) => entry.Session).map((entry) => entry.Key.slice(prefix.length)).sort();
}

/** True when every task is owned by the member rendezvous hashing ranks first among `members`. */
export function settledOwners(owners: ReadonlyMap<string, string>, tasks: readonly string[], members: readonly string[]): boolean {
  return tasks.every((task) => owners.get(task) === rendezvousOwner(task, members));
}

/** Pairs of applies of the same task by different instances whose [start, end] intervals intersect. */
export function perTaskOverlaps(records: readonly RecordEntry[]): [RecordEntry, RecordEntry][] {
  const found: [RecordEntry, RecordEntry][] = [];
  const byTask = new Map<string, RecordEntry[]>();
  for (const entry of records) if (entry.op === "apply") byTask.set(entry.task, [...(byTask.get(entry.task) ?? []), entry]);
  for (const applies of byTask.values()) {
    applies.sort((a, b) => a.start - b.start);
    for (let i = 0; i < applies.length; i++) {
      for (let j = i + 1; j < applies.length && applies[j]!.start < applies[i]!.end; j++) {
        if (applies[j]!.instance !== applies[i]!.instance) found.push([applies[i]!, applies[j]!]);
      }
    }
  }
  return found;
}
