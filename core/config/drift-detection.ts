/**
 * @module A task's `drift_detection` block (beyond CTS): when to plan the task's last applied inputs
 * and compare, and whether to correct what differs. Kept on the task as written (durations still
 * strings); the task engine merges it over its `drift_detection` option (the default of every task).
 */
import { Cron } from "croner";
import type { DriftDetectionConfig } from "../plugin-api/mod.ts";
import { parseGoDuration } from "../plugin-api/mod.ts";

/** The shortest accepted interval: each check runs two plans. */
export const MIN_DRIFT_INTERVAL_MS = 1000;

/** A written block → the task's field; undefined when the task has none. */
export function driftDetectionOf(raw: unknown): DriftDetectionConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  const block = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ["enabled", "interval", "cron", "auto_correct"] as const) if (block[key] !== undefined) out[key] = block[key];
  return out as DriftDetectionConfig;
}

/** Problems of a block that passed the schema: field → message. */
export function driftDetectionIssues(block: DriftDetectionConfig | undefined): [string, string][] {
  if (!block) return [];
  const issues: [string, string][] = [];
  if (block.interval !== undefined && block.cron !== undefined) {
    issues.push(["cron", "and interval are both set: use one of them"]);
  }
  if (block.interval !== undefined) {
    const ms = parseGoDuration(block.interval);
    if (ms === undefined || ms < MIN_DRIFT_INTERVAL_MS) issues.push(["interval", `must be a duration of at least 1s, got "${block.interval}"`]);
  }
  if (block.cron !== undefined) {
    try {
      new Cron(block.cron, { paused: true }).stop();
    } catch (error) {
      issues.push(["cron", `is not a cron expression ("${block.cron}"): ${(error as Error).message}`]);
    }
  }
  return issues;
}
