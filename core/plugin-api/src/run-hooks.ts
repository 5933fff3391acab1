/**
 * @module Run hooks: work a plugin does around each run of a task, whatever its driver — before
 * the driver applies (a hook may cancel the run) and after the run ended. The engine calls every
 * registered hook (`runHookRegistryToken`) in registration order and keeps what they report in the
 * run's record. A hook never changes what the driver does; it can only stop a run before it starts.
 */
import type { TaskConfig } from "./config.ts";
import type { Named } from "./registry.ts";
import type { RunRecord } from "./services/run-history.ts";

/** What one hook did, as the run record keeps it. */
export interface HookReport {
  /** Which hook, as its plugin names it (`pre_apply`, `post_apply[1]`). */
  readonly name: string;
  /** `ok`; `failed` (it said no, exited non-zero, or could not start); `timed_out` (it was stopped at its time limit). */
  readonly outcome: "ok" | "failed" | "timed_out";
  readonly exit_code?: number;
  /** What it printed (stdout and stderr), masked, at most its plugin's bound (the end is kept). */
  readonly output?: string;
  /** Characters of output left out of `output` by the bound. */
  readonly output_omitted?: number;
  /** Why it failed, when it did; never a secret's value. */
  readonly error?: string;
  readonly duration_ms: number;
}

export interface RunHookContext {
  readonly task: TaskConfig;
  /**
   * The run's record as it stands, masked: before the apply its id, trigger and change (`outcome`
   * "running"); after it also the outcome, error, plan and end time.
   */
  readonly run: RunRecord;
  /** The task's working directory (absolute). */
  readonly workingDir: string;
  /** Aborted when the daemon stops: a hook ends its work (its report then says so). */
  readonly signal: AbortSignal;
}

/** What `beforeApply` answers. */
export interface BeforeApplyResult {
  readonly reports: readonly HookReport[];
  /** Set to cancel the run (outcome `cancelled`): why, without secrets. */
  readonly veto?: string;
}

/**
 * Registered by plugins through `runHookRegistryToken`; `name` identifies the hook in errors. A
 * hook that throws is reported as failed (before the apply, that cancels the run).
 */
export interface RunHook extends Named {
  /** Called after the inputs are rendered, before the driver applies. */
  beforeApply?(context: RunHookContext): Promise<BeforeApplyResult>;
  /** Called once the apply ended (applied or failed), before its record is stored. */
  afterApply?(context: RunHookContext): Promise<readonly HookReport[]>;
}
