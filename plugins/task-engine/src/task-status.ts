/** @module A task's health status from its newest events, as CTS's status API computes it. */
import type { TaskEvent, TaskStatus } from "../../../core/plugin-api/mod.ts";

/**
 * `unknown` without events; `successful` when the newest succeeded; `errored` when the newest
 * failed and it is the only failure kept; `critical` when the newest failed and two or more did.
 * `events` is newest first; only the newest `limit` count, as only those are kept.
 */
export function taskStatus(events: readonly TaskEvent[], limit = 5): TaskStatus {
  const kept = events.slice(0, Math.max(1, limit));
  const newest = kept[0];
  if (newest === undefined) return "unknown";
  if (newest.success) return "successful";
  const failures = kept.filter((event) => !event.success).length;
  return failures >= 2 ? "critical" : "errored";
}
