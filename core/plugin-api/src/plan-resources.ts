/**
 * @module The resources a Terraform JSON plan touches (`terraform show -json <plan>`, and HCP
 * Terraform's plan JSON, the same format), by address and action, for a run's record.
 */
import type { ResourceChange } from "./services/run-history.ts";

/** Terraform's action list for one resource as one word (`replace` for delete+create); undefined for a no-op. */
export function resourceAction(actions: readonly string[]): string | undefined {
  if (actions.includes("delete") && actions.includes("create")) return "replace";
  const [first] = actions;
  return first === undefined || first === "no-op" ? undefined : first;
}

/** The plan's `resource_changes` that do something, in the plan's order. */
export function planResourceChanges(plan: unknown): ResourceChange[] {
  const changes = (plan as { resource_changes?: unknown } | null)?.resource_changes;
  if (!Array.isArray(changes)) return [];
  const out: ResourceChange[] = [];
  for (const change of changes as { address?: unknown; change?: { actions?: unknown } }[]) {
    const actions = change?.change?.actions;
    if (typeof change?.address !== "string" || !Array.isArray(actions)) continue;
    const action = resourceAction(actions.map(String));
    if (action) out.push({ address: change.address, action });
  }
  return out;
}
