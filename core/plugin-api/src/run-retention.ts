/** @module The run history's retention and paging (shared by every TaskStore) over a task's records held oldest first. */
import type { RunPage, RunQuery, RunRecord, RunRetention } from "./services/run-history.ts";

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

/** Newest first, older than `before`, at most `limit`; `next` when older records remain. */
export function pageRuns(oldestFirst: readonly RunRecord[], query: RunQuery): RunPage {
  const older = query.before === undefined ? oldestFirst : oldestFirst.filter((run) => run.id < query.before!);
  const limit = Math.max(1, query.limit);
  const runs = older.slice(Math.max(0, older.length - limit)).reverse();
  return older.length > limit ? { runs, next: runs[runs.length - 1]!.id } : { runs };
}
