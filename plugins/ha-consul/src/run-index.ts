/**
 * @module The index of a task's run history in Consul KV: the record ids, from a key listing
 * (`?keys`: names only, no values), and the page of records a reader asked for, read one value
 * each. A page of 20 reads the ids and 20 small values, whatever the task's history holds.
 */
import { consulQuery, pageIds, runSummary } from "../../../core/plugin-api/mod.ts";
import type { ConsulClient, KvPair, RunPage, RunQuery, RunRecord } from "../../../core/plugin-api/mod.ts";
import type { KvLayout } from "./kv-layout.ts";

/** Consul's KV path of `key`, each segment escaped. */
function kvPath(key: string): string {
  return `/v1/kv/${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** The ids of the records under `prefix` (a task's), oldest first. */
export async function listRunIds(consul: ConsulClient, prefix: string): Promise<string[]> {
  const { data } = await consul.query(consulQuery(kvPath(prefix), { keys: "true" }), { retry: false });
  if (!Array.isArray(data)) return [];
  const ids: string[] = [];
  for (const key of data) {
    if (typeof key !== "string" || !key.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    if (id !== "" && !id.includes("/")) ids.push(id);
  }
  return ids.sort();
}

/**
 * One page of a task's records as summaries, with the task's record count. `decode` reads one
 * stored value (undefined for a damaged one, which the page leaves out).
 */
export async function readRunPage(
  consul: ConsulClient,
  layout: KvLayout,
  task: string,
  query: RunQuery,
  decode: (pair: KvPair) => Promise<RunRecord | undefined>,
): Promise<RunPage> {
  const ids = await listRunIds(consul, layout.taskRunsPrefix(task));
  const page = pageIds(ids, query);
  const pairs = await Promise.all(page.ids.map((id) => consul.kvGet(layout.runKey(task, id))));
  // A record deleted between the listing and its read (retention) is left out of the page.
  const decoded = await Promise.all(pairs.map((pair) => (pair ? decode(pair) : undefined)));
  const runs = decoded.flatMap((record) => (record ? [runSummary(record)] : []));
  return { runs, ...(page.next ? { next: page.next } : {}), total: ids.length };
}
