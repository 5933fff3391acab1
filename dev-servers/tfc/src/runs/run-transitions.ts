/**
 * @module The run state machine's rules: which statuses are final, which actions each status
 * allows (the `actions` object clients read), and status changes that stamp `status-timestamps`
 * and record a run event.
 */
import { newId, now } from "../state/ids.ts";
import type { PhaseRecord, PhaseStatus, RunRecord, RunStatus } from "../state/records.ts";
import type { TfcState } from "../state/tfc-state.ts";
import { timestampKey } from "../views/view-context.ts";

const FINAL: ReadonlySet<RunStatus> = new Set(["applied", "planned_and_finished", "discarded", "errored", "canceled"]);
/** Waiting for someone to confirm (apply) or discard. */
const AWAITING_CONFIRMATION: ReadonlySet<RunStatus> = new Set(["planned", "cost_estimated"]);
const CANCELABLE: ReadonlySet<RunStatus> = new Set(["pending", "plan_queued", "planning", "cost_estimating", "apply_queued", "applying"]);

export function isFinal(status: RunStatus): boolean {
  return FINAL.has(status);
}

export function isConfirmable(run: RunRecord): boolean {
  return AWAITING_CONFIRMATION.has(run.status) && !run.planOnly;
}

export function isDiscardable(run: RunRecord): boolean {
  return run.status === "pending" || run.status === "policy_override" || isConfirmable(run);
}

export function isCancelable(run: RunRecord): boolean {
  return CANCELABLE.has(run.status);
}

/** Force-cancel opens once a cancel was asked for and its cool-off passed, while the run still goes on. */
export function isForceCancelable(run: RunRecord, at = Date.now()): boolean {
  return run.forceCancelAvailableAt !== null && !isFinal(run.status) && Date.parse(run.forceCancelAvailableAt) <= at;
}

export function runActions(run: RunRecord): Record<string, boolean> {
  return {
    "is-cancelable": isCancelable(run),
    "is-confirmable": isConfirmable(run),
    "is-discardable": isDiscardable(run),
    "is-force-cancelable": isForceCancelable(run),
  };
}

const EVENT_DESCRIPTIONS: Partial<Record<RunStatus, string>> = {
  pending: "Run was queued",
  planned: "Plan finished; the run is waiting for confirmation",
  cost_estimated: "Cost estimate finished; the run is waiting for confirmation",
  policy_override: "A policy soft-failed; the run is waiting for someone to override it or discard it",
  confirmed: "Run was confirmed",
  applied: "Apply finished",
  planned_and_finished: "Plan finished; there is nothing to apply",
  discarded: "Run was discarded",
  errored: "Run errored",
  canceled: "Run was canceled",
};

/** Moves a run to `status`, stamping `<status>-at` and recording a run event. */
export function setRunStatus(state: TfcState, run: RunRecord, status: RunStatus, description?: string): void {
  run.status = status;
  const at = now();
  run.statusTimestamps[timestampKey(status === "pending" ? "plan_queueable" : status)] = at;
  state.addRunEvent({
    id: newId("re"),
    runId: run.id,
    action: status === "pending" ? "queued" : status,
    description: description ?? EVENT_DESCRIPTIONS[status] ?? "",
    createdAt: at,
  });
}

const PHASE_TIMESTAMP: Record<PhaseStatus, string> = {
  pending: "pending-at",
  queued: "queued-at",
  running: "started-at",
  finished: "finished-at",
  errored: "errored-at",
  canceled: "canceled-at",
  unreachable: "unreachable-at",
};

/** Moves a plan or apply to `status`; a phase that is over closes its log. */
export function setPhaseStatus(phase: PhaseRecord, status: PhaseStatus): void {
  phase.status = status;
  phase.statusTimestamps[PHASE_TIMESTAMP[status]] = now();
  if (status !== "pending" && status !== "queued" && status !== "running") phase.log.close();
}
