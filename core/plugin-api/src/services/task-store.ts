/**
 * @module Where tasks and their events live: in memory standalone, in Consul KV with HA.
 * Both implementations sit behind `taskStoreToken` and pass one conformance suite.
 */
import type { TaskConfig } from "../config.ts";
import type { TriggerReason } from "../conditions.ts";
import type { RunPage, RunQuery, RunRecord, RunRetention } from "./run-history.ts";
import type { DamagedRecord } from "./damaged-records.ts";

/** One run of a task, as CTS's `/v1/status/tasks?include=events` shows it (plus `trigger`). */
export interface TaskEvent {
  readonly id: string;
  readonly success: boolean;
  /** RFC 3339. */
  readonly start_time: string;
  readonly end_time: string;
  readonly task_name: string;
  readonly error: { readonly message: string } | null;
  readonly config: { readonly providers: readonly string[]; readonly services: readonly string[]; readonly source: string };
  /** Beyond CTS: why the run happened. */
  readonly trigger?: TriggerReason;
  /** Beyond CTS: the instance that ran it (HA). */
  readonly instance_id?: string;
  /** Beyond CTS: where the driver's run can be seen (an HCP Terraform run URL), when the driver says. */
  readonly url?: string;
  /** Beyond CTS: true when the apply was skipped because the inputs equalled the last successful run. */
  readonly skipped?: boolean;
}

/**
 * The last run of a task: written when it starts and again when it ends, so a run cut short by a
 * crash stays `started` and never counts as a success after a restart or failover.
 */
export interface StoredRun {
  /** SHA-256 of what the run applied: the rendered inputs and the condition's unpublished watched data. */
  readonly fingerprint: string;
  readonly state: "started" | "succeeded" | "failed";
}

export interface StoredTask {
  readonly config: TaskConfig;
  /** The last run (a skip of unchanged inputs is allowed only after a `succeeded` one with the same fingerprint). */
  readonly lastRun?: StoredRun;
  /**
   * The run record of the last successful apply (its outputs are what
   * `GET /v1/tasks/<name>` shows), so a new leader finds them without searching the history.
   */
  readonly lastAppliedRun?: string;
  /** @deprecated Written by earlier versions (hash of the last successful apply); no longer read or written. */
  readonly lastAppliedInputHash?: string;
}

export interface TaskStore {
  /** Loads everything (called once when the engine starts or an HA leader takes over). */
  listTasks(): Promise<StoredTask[]>;
  getTask(name: string): Promise<StoredTask | undefined>;
  putTask(task: StoredTask): Promise<void>;
  deleteTask(name: string): Promise<void>;
  /** Newest first, at most `limit`. */
  listEvents(name: string): Promise<TaskEvent[]>;
  /** Adds an event, keeping the newest `limit` (config `events_per_task`). */
  addEvent(event: TaskEvent, limit: number): Promise<void>;
  /** Drops everything (`-reset-storage`). */
  reset(): Promise<void>;
  /**
   * Stores a run record (replacing one with the same id), then drops that task's records beyond
   * `retention`. `deleteTask` and `reset` drop run records too. A store without `putRun`,
   * `listRuns` and `getRun` keeps no run history.
   */
  putRun?(record: RunRecord, retention: RunRetention): Promise<void>;
  /** A page of a task's records, newest first, as summaries (without `RUN_DETAIL_FIELDS`). */
  listRuns?(task: string, query: RunQuery): Promise<RunPage>;
  /** One record with its detail fields. */
  getRun?(task: string, id: string): Promise<RunRecord | undefined>;
  /**
   * Optional: the records found damaged so far (cannot be decoded), newest first. A
   * damaged task is left out of `listTasks` and reported here; a damaged event list reads as empty
   * and a damaged run record is left out, both set aside (reported here too).
   */
  damagedRecords?(): readonly DamagedRecord[];
  /**
   * Optional: drops that task's records beyond `retention` without a new record (the
   * engine calls it now and then, so records past `max_age` go although the task does not run).
   */
  pruneRuns?(task: string, retention: RunRetention): Promise<void>;
}
