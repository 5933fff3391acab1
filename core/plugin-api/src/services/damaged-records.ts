/**
 * @module Stored records a store or the cluster could not decode. A damaged
 * record is reported by its key and never stops what does not depend on it: a damaged task stays
 * errored until repaired while every other task runs; a damaged event list or run record is set
 * aside so the endpoints that read them keep answering.
 */

/** Which record: a task's config and last run, its events, one run record, or a cluster lock's value. */
export type DamagedRecordKind = "task" | "events" | "run" | "run-detail" | "leader" | "member" | "owner";

export interface DamagedRecord {
  /** Where it is stored (a Consul KV key with high availability). */
  readonly key: string;
  readonly kind: DamagedRecordKind;
  /** The task it belongs to (task, events, run, owner). */
  readonly task?: string;
  /** Why it could not be decoded. */
  readonly error: string;
  /** What was done about it, or how to repair it. */
  readonly action: string;
  /** RFC 3339: when it was first found. */
  readonly since: string;
}
