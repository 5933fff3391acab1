/**
 * @module Where tasks and their events live: in memory standalone, in Consul KV with HA.
 * Both implementations sit behind `taskStoreToken` and pass one conformance suite.
 */
import type { TaskConfig } from "../config.ts";
import type { TriggerReason } from "../conditions.ts";

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

export interface StoredTask {
  readonly config: TaskConfig;
  /** Hash of the rendered inputs of the last successful apply (for skip-if-unchanged after failover). */
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
}
