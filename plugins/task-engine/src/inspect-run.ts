/**
 * @module How a run's end is recorded from what the driver answered: an apply's (resources,
 * outputs, phase times, URL) and an inspection's, which is a run record of its own (kind
 * "inspect", outcome "planned") so its plan can be read and linked like any run's.
 */
import type {
  ApplyResult, InputChange, InspectPlan, PlanSummary, ResourceChange, RunObserver, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import type { RunEnd, RunRecorder } from "./run-recorder.ts";

export interface InspectResult {
  readonly plan: InspectPlan;
  /** The inspection's run record. */
  readonly runId: string;
}

/** Resource counts from the planned actions (a replacement adds one and destroys one). */
export function countsOf(resources: readonly ResourceChange[] | undefined): PlanSummary | undefined {
  if (!resources) return undefined;
  const counts = { add: 0, change: 0, destroy: 0 };
  for (const { action } of resources) {
    if (action === "create" || action === "replace") counts.add++;
    if (action === "delete" || action === "replace") counts.destroy++;
    if (action === "update") counts.change++;
  }
  return counts;
}

/** The end of an apply run: `error` undefined means it succeeded; `eventId` is absent for a retry's attempt (no CTS event). */
export function appliedEnd(eventId: string | undefined, error: string | undefined, applied: ApplyResult | undefined, initMs: number | undefined): RunEnd {
  const plan = applied?.summary ?? countsOf(applied?.resources);
  return {
    outcome: error === undefined ? "applied" : "failed",
    ...(eventId ? { eventId } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(plan ? { plan } : {}),
    ...(applied?.url ? { url: applied.url } : {}),
    ...(applied ? { findings: applied } : {}),
    ...(applied?.outputs && error === undefined ? { outputs: applied.outputs } : {}),
    ...(initMs !== undefined ? { initMs } : {}),
  };
}

/** Runs `plan` as an inspection with its own run record; a failed plan is recorded and rethrown. */
export async function inspectRun(
  recorder: RunRecorder,
  reason: TriggerReason,
  change: InputChange,
  plan: (observer: RunObserver) => Promise<InspectPlan>,
  initMs: () => number | undefined,
): Promise<InspectResult> {
  const open = recorder.begin(reason, { change }, { kind: "inspect" });
  let result: InspectPlan;
  try {
    result = await plan(open.observer);
  } catch (error) {
    const ms = initMs();
    await open.end({ outcome: "failed", error: errorMessage(error), ...(ms !== undefined ? { initMs: ms } : {}) });
    throw error;
  }
  // A driver that does not stream its output still answers the plan's text: that is the log.
  if (!open.observer.heard("plan") && result.plan) open.observer.output("plan", result.plan.endsWith("\n") ? result.plan : `${result.plan}\n`);
  const counts = countsOf(result.resources);
  const ms = initMs();
  await open.end({
    outcome: "planned", findings: result, ...(result.url ? { url: result.url } : {}), ...(counts ? { plan: counts } : {}),
    ...(ms !== undefined ? { initMs: ms } : {}),
  });
  return { plan: result, runId: open.record.id };
}
