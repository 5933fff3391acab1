/**
 * @module The resources a Terraform JSON plan touches (`terraform show -json <plan>`, and HCP
 * Terraform's plan JSON, the same format), by address and action: for a run's record and for the
 * drivers' drift checks, so every driver words actions alike.
 */
import type { ResourceChange } from "./services/run-history.ts";

/** One entry of a JSON plan's `resource_changes` or `resource_drift`. */
export interface JsonPlanChange {
  readonly address?: string;
  readonly change?: { readonly actions?: readonly string[] };
}

/** Terraform's action list for one resource as one word (`replace` for delete+create); undefined for a no-op. */
export function resourceAction(actions: readonly string[]): string | undefined {
  if (actions.includes("delete") && actions.includes("create")) return "replace";
  const [first] = actions;
  return first === undefined || first === "no-op" ? undefined : first;
}

/**
 * The entries that do something, by address and action, in plan order. A drift check leaves out
 * `read`s (`reads: false`): reading a data source again is not drift.
 */
export function resourceChangesOf(entries: readonly JsonPlanChange[] | undefined, options: { reads?: boolean } = {}): ResourceChange[] {
  const out: ResourceChange[] = [];
  for (const entry of entries ?? []) {
    const actions = entry?.change?.actions;
    if (typeof entry?.address !== "string" || !Array.isArray(actions)) continue;
    const action = resourceAction(actions.map(String));
    if (action && (action !== "read" || options.reads !== false)) out.push({ address: entry.address, action });
  }
  return out;
}

/** The plan's `resource_changes` that do something, in the plan's order. */
export function planResourceChanges(plan: unknown): ResourceChange[] {
  const changes = (plan as { resource_changes?: unknown } | null)?.resource_changes;
  return Array.isArray(changes) ? resourceChangesOf(changes as JsonPlanChange[]) : [];
}

/** `first`'s entries, then `second`'s for addresses not seen yet; at most `limit`. */
export function mergeResourceChanges(first: readonly ResourceChange[], second: readonly ResourceChange[], limit = 100): ResourceChange[] {
  const seen = new Map<string, ResourceChange>();
  for (const resource of [...first, ...second]) if (!seen.has(resource.address)) seen.set(resource.address, resource);
  return [...seen.values()].slice(0, limit);
}
