/**
 * @module The resource counts of an apply, read from terraform's closing line
 * ("Apply complete! Resources: 1 added, 0 changed, 2 destroyed."), for the run history. Also
 * OpenTofu's, which prints the same line. Undefined when the line is missing (never a guess).
 */
import type { PlanSummary } from "../../../core/plugin-api/mod.ts";

const APPLY_COMPLETE = /Apply complete! Resources: (\d+) added, (\d+) changed, (\d+) destroyed\./;

export function applySummary(stdout: string): PlanSummary | undefined {
  const match = APPLY_COMPLETE.exec(stdout);
  if (!match) return undefined;
  return { add: Number(match[1]), change: Number(match[2]), destroy: Number(match[3]) };
}

const DESTROY_COMPLETE = /Destroy complete! Resources: (\d+) destroyed\./;

/** The count of "Destroy complete! Resources: 2 destroyed." as a summary; undefined without the line. */
export function destroySummary(stdout: string): PlanSummary | undefined {
  const match = DESTROY_COMPLETE.exec(stdout);
  return match ? { add: 0, change: 0, destroy: Number(match[1]) } : undefined;
}
