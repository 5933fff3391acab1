/**
 * @module Run history: one record per run of a task and per skipped trigger, saying why it ran,
 * what in its inputs changed, and what the driver did. Kept in the task store with bounded
 * retention, so with high availability it survives a failover. Beyond CTS, whose five events per
 * task say only whether a run succeeded.
 */
import type { TriggerReason } from "../conditions.ts";
import type { HookReport } from "../run-hooks.ts";

/**
 * What a run's driver did: `running` until it ends; `skipped` when the inputs equalled the last
 * success. Refinement (additive): `checked` ends a drift check that planned (its `drift` says what it found);
 * `cancelled`: a run hook vetoed the run before the driver applied (`error` says why; nothing was
 * applied, and the run is not retried: the next trigger runs again).
 */
export type RunOutcome = "running" | "applied" | "failed" | "skipped" | "checked" | "cancelled";

/** Added, removed and changed entries of one input variable since the task's previous run. */
export interface KeyedChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

/** A service instance that changed: its id (`TaskInputs.services` key) and the fields that differ. */
export interface InstanceChange {
  readonly id: string;
  readonly fields: readonly string[];
}

/**
 * The change in a task's inputs that this run applies, against the previous run's inputs. A
 * variable is present only when the task renders it; an empty change means nothing differed
 * (a forced run, or the first run when `first` is set).
 */
export interface InputChange {
  /** True for the task's first recorded run: everything counts as added. */
  readonly first?: boolean;
  /**
   * Entries left out because a list passed the cap (100 a list), so one
   * record stays small (a Consul KV value is at most 512 KiB) even when thousands of instances change.
   */
  readonly omitted?: number;
  readonly services?: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly InstanceChange[];
  };
  /** Key paths. */
  readonly consul_kv?: KeyedChange;
  /** Service names; `changed` means the tags changed. */
  readonly catalog_services?: KeyedChange;
}

/** What a plan would do (from the driver, when it says). */
export interface PlanSummary {
  readonly add: number;
  readonly change: number;
  readonly destroy: number;
}

/**
 * Why a trigger did not run the driver (`outcome` "skipped").
 * `unchanged_inputs`: the inputs equal the last successful run's; `input_missing`: a source has
 * not delivered its first data; `disabled`: the task is disabled.
 */
export type SkipReason = "unchanged_inputs" | "input_missing" | "disabled";

/**
 * Refinement (additive): what a record is. `apply` (the default when absent): a run of the task;
 * `drift-check`: a plan with the last applied inputs that changed nothing (`drift` says what it
 * found); `destroy`: the destroy of the task's resources before its deletion.
 */
export type RunKind = "apply" | "drift-check" | "destroy";

/** A resource a plan would change, by address and Terraform action (`create`, `update`, `delete`, `replace`, ...). */
export interface ResourceAction {
  readonly address: string;
  readonly action: string;
}

/** Refinement (additive): what a drift check found. */
export interface DriftFinding {
  /** True when a resource differs from what the task last applied. */
  readonly detected: boolean;
  /** The resources that differ (refresh-only plan) or that an apply would change (normal plan), capped at 100. */
  readonly resources: readonly ResourceAction[];
  /** True when `drift_detection.auto_correct` queued an apply to bring them back. */
  readonly corrected?: boolean;
}

export interface RunRecord {
  /**
   * Unique, and sorts by start time (so "newest first" is a reverse sort of ids). The
   * id starts with the start time as 13 digits of Unix milliseconds, then `-` and a random suffix
   * (`1796290833123-3f9a1c2e`), so a store can apply the age limit from ids alone.
   */
  readonly id: string;
  readonly task: string;
  readonly trigger: TriggerReason;
  readonly change: InputChange;
  readonly outcome: RunOutcome;
  readonly plan?: PlanSummary;
  /** The driver's error text, when `outcome` is `failed`; why, when `cancelled`. Never holds secrets' values. */
  readonly error?: string;
  /** RFC 3339. */
  readonly started_at: string;
  readonly ended_at?: string;
  readonly duration_ms?: number;
  /** The instance that ran it (the leader, or the task's owner in a shared cluster). */
  readonly instance_id: string;
  /** The CTS task event this run recorded, if any (`/v1/status/tasks?include=events`). */
  readonly event_id?: string;
  /** Set when `outcome` is `skipped`. */
  readonly skip_reason?: SkipReason;
  /** Refinement (additive): absent for a run (`apply`). */
  readonly kind?: RunKind;
  /** Refinement (additive): set on `drift-check` records that ended (`outcome` "applied" means checked). */
  readonly drift?: DriftFinding;
  /**
   * Refinement (additive): on a `destroy` record that failed, the resources the task still manages
   * (addresses), when the driver can tell.
   */
  readonly resources_left?: readonly string[];
  /** Refinement (additive): what the run hooks did (commands before and after the apply), in order. */
  readonly hooks?: readonly HookReport[];
  /** Refinement (additive): true when a hook after the apply failed; the run's `outcome` stands. */
  readonly hooks_failed?: boolean;
}

/** How much history a store keeps per task (config `run_history`). */
export interface RunRetention {
  /** Newest records kept per task. */
  readonly maxRunsPerTask: number;
  /** Records that started longer ago than this are dropped (milliseconds). */
  readonly maxAgeMs: number;
}

/** A page of a task's history, newest first; `next` is the `before` cursor of the following page. */
export interface RunPage {
  readonly runs: readonly RunRecord[];
  readonly next?: string;
}

export interface RunQuery {
  /** At most this many records (the API caps it). */
  readonly limit: number;
  /** Only records older than this id (the previous page's `next`). */
  readonly before?: string;
}
