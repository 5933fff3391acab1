/**
 * @module The resource counts of an applied run (its plan's additions, changes and destructions),
 * for the run history, from the plan `followRun` read with the run. None when the plan is missing.
 */
import type { PlanSummary } from "../../../core/plugin-api/mod.ts";
import type { FollowedRun } from "./run-follower.ts";

export function runResourceCounts(run: FollowedRun): PlanSummary | undefined {
  const a = run.plan?.attributes;
  if (!a || typeof a["resource-additions"] !== "number") return undefined;
  return { add: Number(a["resource-additions"]), change: Number(a["resource-changes"] ?? 0), destroy: Number(a["resource-destructions"] ?? 0) };
}
