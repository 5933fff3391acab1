/** @module The run history's retention and paging (shared by every TaskStore) over a task's records held oldest first. */
import type { RunPage, RunQuery, RunRecord, RunRetention } from "./services/run-history.ts";
import { runSummary } from "./run-summary.ts";

/** The start time a record id carries (its first 13 digits, Unix milliseconds). */
export function runIdTime(id: string): number {
  return Number(id.slice(0, 13));
}

/** The newest `maxRunsPerTask` records that started within `maxAgeMs` of `now`. */
export function retainedRuns(oldestFirst: RunRecord[], retention: RunRetention, now: number): RunRecord[] {
  const kept = oldestFirst.slice(Math.max(0, oldestFirst.length - retention.maxRunsPerTask));
  const cutoff = now - retention.maxAgeMs;
  const firstYoung = kept.findIndex((run) => runIdTime(run.id) >= cutoff);
  return firstYoung < 0 ? [] : kept.slice(firstYoung);
}

/** The ids of one page: newest first, older than `before`, at most `limit`; `next` when older ones remain. */
export function pageIds(oldestFirst: readonly string[], query: RunQuery): { readonly ids: string[]; readonly next?: string } {
  const older = query.before === undefined ? oldestFirst : oldestFirst.filter((id) => id < query.before!);
  const limit = Math.max(1, query.limit);
  const ids = older.slice(Math.max(0, older.length - limit)).reverse();
  return older.length > limit ? { ids, next: ids[ids.length - 1]! } : { ids };
}

/**
 * Newest first, older than `before`, at most `limit`, as summaries (no detail fields); `next` when
 * older records remain; `total` counts every record of the task.
 */
export function pageRuns(oldestFirst: readonly RunRecord[], query: RunQuery): RunPage {
  const byId = new Map(oldestFirst.map((run) => [run.id, run]));
  const page = pageIds(oldestFirst.map((run) => run.id), query);
  const runs = page.ids.map((id) => runSummary(byId.get(id)!));
  return { runs, ...(page.next ? { next: page.next } : {}), total: oldestFirst.length };
}
