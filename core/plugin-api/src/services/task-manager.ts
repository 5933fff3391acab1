/**
 * @module The task engine's public face: what the HTTP API, the CLI and HA drive.
 * Implemented by the engine plugin; names and semantics follow CTS's TasksManager.
 */
import type { TaskConfig } from "../config.ts";
import type { TriggerReason } from "../conditions.ts";
import type { InspectPlan } from "../driver.ts";
import type { TaskEvent } from "./task-store.ts";
import type { RunOutput, RunPage, RunQuery, RunRecord } from "./run-history.ts";

export type TaskStatus = "successful" | "errored" | "critical" | "unknown";

export interface TaskState {
  readonly config: TaskConfig;
  readonly status: TaskStatus;
  /** Newest first. */
  readonly events: readonly TaskEvent[];
  readonly running: boolean;
  readonly deleting: boolean;
  /** Refinement (additive): the summary of the run in progress, when the engine keeps a run history. */
  readonly currentRun?: RunRecord;
  /** Refinement (additive): the summary of the last run that ended in this process (undefined after a restart until one ends). */
  readonly lastRun?: RunRecord;
}

/** Refinement (additive): the module's outputs after the task's last successful apply. */
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
   * Refinement (additive): `runId` names the run record of an inspection, when one was kept.
   */
  setEnabled(name: string, enabled: boolean, run?: RunRequest): Promise<{ plan?: InspectPlan; runId?: string }>;
  /** Marks for deletion; deleted at once if idle, else after the current run. */
  delete(name: string): Promise<void>;
  /** Runs one task now (queued behind a running one). */
  runNow(name: string, reason: TriggerReason): Promise<TaskEvent | undefined>;
  /** Resolves when no run is in progress and no run is queued (tests, graceful stop). */
  idle(): Promise<void>;
  /** Optional: calls `listener` with every event as it is recorded (run counters). Returns unsubscribe. */
  onEvent?(listener: (event: TaskEvent) => void): () => void;
  /**
   * Refinement (optional): a page of the task's run history, newest first. Throws CtsError
   * `CTS_ERR_NOT_FOUND` for an unknown task.
   */
  listRuns?(name: string, query: RunQuery): Promise<RunPage>;
  /** One run record; undefined when the task has no record with that id. Throws like `listRuns`. */
  getRun?(name: string, id: string): Promise<RunRecord | undefined>;
  /**
   * Refinement (optional): the outputs of the task's last successful apply that recorded any;
   * undefined when none is known. Throws like `listRuns`.
   */
  outputs?(name: string): Promise<TaskOutputs | undefined>;
}
