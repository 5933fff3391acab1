/**
 * @module The task engine's public face: what the HTTP API, the CLI and HA drive.
 * Implemented by the engine plugin; names and semantics follow CTS's TasksManager.
 */
import type { TaskConfig } from "../config.ts";
import type { TriggerReason } from "../conditions.ts";
import type { InspectPlan } from "../driver.ts";
import type { TaskEvent } from "./task-store.ts";
import type { RunPage, RunQuery, RunRecord } from "./run-history.ts";
import type { DamagedRecord } from "./damaged-records.ts";

export type TaskStatus = "successful" | "errored" | "critical" | "unknown";

export interface TaskState {
  readonly config: TaskConfig;
  readonly status: TaskStatus;
  /** Newest first. */
  readonly events: readonly TaskEvent[];
  readonly running: boolean;
  readonly deleting: boolean;
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
  /** CTS PATCH /v1/tasks/{name} `{"enabled": ...}`. Inspect does not persist the change. */
  setEnabled(name: string, enabled: boolean, run?: RunRequest): Promise<{ plan?: InspectPlan }>;
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
  /** Refinement (optional): the damaged stored records the task store reported (`/v1/status`). */
  damagedRecords?(): readonly DamagedRecord[];
}
