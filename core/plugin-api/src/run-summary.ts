/**
 * @module A run record with and without its detail (logs, resources, outputs): pages of a task's
 * history carry summaries, so a page of 20 runs stays a few KiB however long their logs were.
 */
import type { RunRecord } from "./services/run-history.ts";

/** The fields a single record's read has and a page of records leaves out. */
export const RUN_DETAIL_FIELDS = ["logs", "resources", "resources_omitted", "outputs"] as const;

export type RunDetailField = (typeof RUN_DETAIL_FIELDS)[number];

/** `record` without its detail fields. */
export function runSummary(record: RunRecord): RunRecord {
  if (!RUN_DETAIL_FIELDS.some((field) => record[field] !== undefined)) return record;
  const summary: Record<string, unknown> = { ...record };
  for (const field of RUN_DETAIL_FIELDS) delete summary[field];
  return summary as unknown as RunRecord;
}

/** Only the detail fields of `record` (empty when it has none). */
export function runDetail(record: RunRecord): Pick<RunRecord, RunDetailField> {
  const detail: Record<string, unknown> = {};
  for (const field of RUN_DETAIL_FIELDS) if (record[field] !== undefined) detail[field] = record[field];
  return detail as Pick<RunRecord, RunDetailField>;
}
