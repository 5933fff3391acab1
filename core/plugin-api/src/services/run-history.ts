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
 * success. `planned` when an inspection (`kind` "inspect") finished its
 * plan; `checked` ends a drift check that planned (its `drift` says what it found); `cancelled`: a
 * run hook vetoed the run before the driver applied (`error` says why; nothing was applied, and the
 * run is not retried: the next trigger runs again).
 */
export type RunOutcome = "running" | "applied" | "planned" | "failed" | "skipped" | "checked" | "cancelled";

/** The steps of a run whose time and output are recorded. */
export type RunPhase = "init" | "plan" | "apply";

/**
 * One resource the run's plan touches, by Terraform's address, with the
 * action planned: `create`, `update`, `replace`, `delete`, `read` or `forget` (resources left as
 * they are are not listed).
 */
export interface ResourceChange {
  readonly address: string;
  readonly action: string;
}

/**
 * One output of the task's module after an apply. A sensitive output is
 * listed without its value.
 */
export interface RunOutput {
  readonly sensitive?: true;
  /** The value as JSON (absent when sensitive), masked like everything the daemon records. */
  readonly value?: unknown;
  /** Set instead of `value` when the value was too large to keep: its size as JSON, in bytes. */
  readonly value_omitted_bytes?: number;
}

/**
 * The output of one phase, masked and without colour codes, bounded (run
 * history option `max_output_bytes`): past the bound the middle is left out (the start of the plan
 * and the end, where errors are, stay) and the text says where and how much.
 */
export interface RunLog {
  readonly text: string;
  /** UTF-8 bytes of output received, `text` plus what was left out (a running run: so far). */
  readonly bytes: number;
  /** UTF-8 bytes left out of `text`; absent when nothing was. */
  readonly omitted_bytes?: number;
}

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
 * What a record is. `apply` (the default when absent): a run of the task;
 * `drift-check`: a plan with the last applied inputs that changed nothing (`drift` says what it
 * found); `destroy`: the destroy of the task's resources before its deletion; `inspect`: a plan
 * asked through the API (`?run=inspect`), which changes nothing. Readers show kinds they do not
 * know by name: more kinds may come.
 */
export type RunKind = "apply" | "inspect" | "drift-check" | "destroy";

/** What a drift check found. */
export interface DriftFinding {
  /** True when a resource differs from what the task last applied. */
  readonly detected: boolean;
  /** The resources that differ (refresh-only plan) or that an apply would change (normal plan), capped at 100. */
  readonly resources: readonly ResourceChange[];
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
  /** Absent for a run (`apply`). */
  readonly kind?: RunKind;
  /** Set on `drift-check` records that ended (`outcome` "applied" means checked). */
  readonly drift?: DriftFinding;
  /**
   * On a `destroy` record that failed, the resources the task still manages (addresses), when the
   * driver can tell.
   */
  readonly resources_left?: readonly string[];
  /** For a run with the trigger `retry`, the error of the failed run it retries. */
  readonly previous_error?: string;
  /** Where the driver's run can be seen (an HCP Terraform run URL). */
  readonly url?: string;
  /** Milliseconds spent in each phase the run went through. */
  readonly phases_ms?: Readonly<Partial<Record<RunPhase, number>>>;
  /**
   * Detail: the output of each phase. Detail fields (`RUN_DETAIL_FIELDS`)
   * are in a single record's read (`getRun`), not in pages of records (`listRuns`).
   */
  readonly logs?: Readonly<Partial<Record<RunPhase, RunLog>>>;
  /** Detail: the resources the plan touched, at most 1000. */
  readonly resources?: readonly ResourceChange[];
  /** Detail: resources beyond the 1000 listed. */
  readonly resources_omitted?: number;
  /** Detail: the module's outputs after a successful apply. */
  readonly outputs?: Readonly<Record<string, RunOutput>>;
  /** What the run hooks did (commands before and after the apply), in order. */
  readonly hooks?: readonly HookReport[];
  /** True when a hook after the apply failed; the run's `outcome` stands. */
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
  /** Without the detail fields (`runSummary`). */
  readonly runs: readonly RunRecord[];
  readonly next?: string;
  /** How many records the task has in all, when the store can tell. */
  readonly total?: number;
}

export interface RunQuery {
  /** At most this many records (the API caps it). */
  readonly limit: number;
  /** Only records older than this id (the previous page's `next`). */
  readonly before?: string;
}
