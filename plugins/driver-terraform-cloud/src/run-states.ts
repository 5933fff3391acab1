/**
 * @module HCP Terraform's run states as the driver reads them: which end a run, which count as
 * applied, which wait for a person, which wait in a queue, and how often a run in each is polled
 * (slowly while it queues, faster as it nears its end).
 */

/** States a run does not leave by itself. */
const FINAL = new Set(["applied", "planned_and_finished", "errored", "discarded", "canceled", "force_canceled", "policy_soft_failed"]);
/** The run did what it was queued for (planned_and_finished: nothing to apply, or a speculative plan). */
const SUCCESS = new Set(["applied", "planned_and_finished"]);
/** Waiting for someone to confirm it (or discard it). */
const AWAITING_APPROVAL = new Set(["planned", "cost_estimated", "policy_checked", "post_plan_completed"]);
/** Waiting for HCP Terraform's capacity or for the workspace. */
const QUEUED = new Set(["pending", "fetching", "queuing", "plan_queued", "apply_queued", "pre_plan_running", "pre_plan_completed"]);

export function isFinal(status: string): boolean {
  return FINAL.has(status);
}

export function isSuccess(status: string): boolean {
  return SUCCESS.has(status);
}

/** The run waits for a person: an approval (its workspace applies by hand) or a policy override. */
export function awaitingPerson(status: string, confirmable: boolean): "approval" | "policy override" | undefined {
  if (status === "policy_override") return "policy override";
  return AWAITING_APPROVAL.has(status) && confirmable ? "approval" : undefined;
}

/** A stale run of ours that may be discarded when newer inputs replace it. */
export function isStaleWaiting(status: string): boolean {
  return AWAITING_APPROVAL.has(status) || status === "policy_override";
}

export function isQueued(status: string): boolean {
  return QUEUED.has(status);
}

/** First poll interval after a run entered `status`, and the most it grows to while the run stays. */
export function pollSchedule(status: string, waitsForPerson: boolean): { readonly firstMs: number; readonly maxMs: number } {
  if (waitsForPerson) return { firstMs: 2000, maxMs: 10_000 };
  if (QUEUED.has(status)) return { firstMs: 500, maxMs: 10_000 };
  // planning, applying, cost estimating, confirmed: the end is near, follow closely.
  return { firstMs: 250, maxMs: 1000 };
}
