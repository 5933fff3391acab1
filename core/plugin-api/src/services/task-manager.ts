/**
 * @module The task engine's public face: what the HTTP API, the CLI and HA drive.
 * Implemented by the engine plugin; names and semantics follow CTS's TasksManager.
 */
import type { TaskConfig } from "../config.ts";
import type { TriggerReason } from "../conditions.ts";
import type { InspectPlan } from "../driver.ts";
import type { TaskEvent } from "./task-store.ts";
import type { ResourceChange, RunOutput, RunPage, RunQuery, RunRecord } from "./run-history.ts";
import type { DamagedRecord } from "./damaged-records.ts";

export type TaskStatus = "successful" | "errored" | "critical" | "unknown";

/**
 * A task's drift, from its newest drift check. `unknown` until one ended
 * (or when drift detection is off); `none` or `drifted` after.
 */
export interface DriftState {
  readonly status: "unknown" | "none" | "drifted";
  /** The newest check's end (RFC 3339) and run record id. */
  readonly checked_at?: string;
  readonly run_id?: string;
  /** What differed at the newest check (empty unless `drifted`). */
  readonly resources: readonly ResourceChange[];
  /** When the next check is due (RFC 3339); absent when drift detection is off for the task. */
  readonly next_check?: string;
  /** The newest check's error, when it could not plan. */
  readonly error?: string;
}

/** How `TaskManager.delete` deletes. */
export interface DeleteOptions {
  /** Destroy the task's resources first; the task is deleted only if the destroy succeeded. */
  readonly destroy?: boolean;
}

export interface TaskState {
  readonly config: TaskConfig;
  readonly status: TaskStatus;
  /** Newest first. */
  readonly events: readonly TaskEvent[];
  readonly running: boolean;
  readonly deleting: boolean;
  /** Drift detection's view of the task. */
  readonly drift?: DriftState;
  /** Why the running run waits (a lock, an approval), as its driver says; absent otherwise. */
  readonly waiting?: string;
  /** The summary of the run in progress, when the engine keeps a run history. */
  readonly currentRun?: RunRecord;
  /** The summary of the last run that ended in this process (undefined after a restart until one ends). */
  readonly lastRun?: RunRecord;
}

/** The module's outputs after the task's last successful apply. */
export interface TaskOutputs {
  /** The run that produced them. */
  readonly run_id: string;
  readonly outputs: Readonly<Record<string, RunOutput>>;
}

export type RunRequest = "now" | "inspect" | undefined;

export interface TaskManager {
  /** In configuration order, then creation order (as CTS keeps its tasks). */
  list(): TaskState[];
  get(name: string): TaskState | undefined;
  /**
   * Creates a task (CTS POST /v1/tasks). `run: "inspect"` plans and discards it; `"now"`
   * applies once and keeps it only if the apply succeeded.
   */
  create(task: TaskConfig, run?: RunRequest): Promise<{ task: TaskConfig; plan?: InspectPlan; event?: TaskEvent }>;
  /**
   * CTS PATCH /v1/tasks/{name} `{"enabled": ...}`. Inspect does not persist the change.
   * `runId` names the run record of an inspection, when one was kept.
   */
  setEnabled(name: string, enabled: boolean, run?: RunRequest): Promise<{ plan?: InspectPlan; runId?: string }>;
  /**
   * Marks for deletion; deleted at once if idle, else after the current run. With
   * `destroy`, the task's resources are destroyed first (a failed destroy keeps the task, errored).
   */
  delete(name: string, options?: DeleteOptions): Promise<void>;
  /** Optional: the plan of destroying the task's resources; changes nothing. */
  planDestroy?(name: string): Promise<InspectPlan>;
  /**
   * Optional: replaces the task's configuration at runtime (`PATCH /v1/tasks/{name}`
   * with task fields), keeping its name, history and state. `inspect` plans the change and changes
   * nothing; `now` applies it at once; without `run` the task runs with it at its next trigger.
   */
  update?(name: string, config: TaskConfig, run?: RunRequest): Promise<{ plan?: InspectPlan; event?: TaskEvent }>;
  /** Runs one task now (queued behind a running one). */
  runNow(name: string, reason: TriggerReason): Promise<TaskEvent | undefined>;
  /** Resolves when no run is in progress and no run is queued (tests, graceful stop). */
  idle(): Promise<void>;
  /** Optional: calls `listener` with every event as it is recorded (run counters). Returns unsubscribe. */
  onEvent?(listener: (event: TaskEvent) => void): () => void;
  /**
   * A page of the task's run history, newest first. Throws CtsError
   * `CTS_ERR_NOT_FOUND` for an unknown task.
   */
  listRuns?(name: string, query: RunQuery): Promise<RunPage>;
  /** One run record; undefined when the task has no record with that id. Throws like `listRuns`. */
  getRun?(name: string, id: string): Promise<RunRecord | undefined>;
  /** Optional: the damaged stored records the task store reported (`/v1/status`). */
  damagedRecords?(): readonly DamagedRecord[];
  /**
   * Optional: the outputs of the task's last successful apply that recorded any;
   * undefined when none is known. Throws like `listRuns`.
   */
  outputs?(name: string): Promise<TaskOutputs | undefined>;
}
