/**
 * @module Reading a Terraform JSON plan (`terraform show -json`, HCP Terraform's plan JSON output)
 * by resource address and action, for the drivers' drift checks: one pure helper, so every driver
 * words actions alike.
 */
import type { ResourceAction } from "./services/run-history.ts";

/** One entry of a JSON plan's `resource_changes` or `resource_drift`. */
export interface JsonPlanChange {
  readonly address?: string;
  readonly change?: { readonly actions?: readonly string[] };
}

/** Terraform's action list as one word: a delete and a create are a `replace`; `no-op` and `read` are none. */
export function planAction(actions: readonly string[]): string | undefined {
  if (actions.includes("create") && actions.includes("delete")) return "replace";
  return actions.find((action) => action !== "no-op" && action !== "read");
}

/** The entries that change something, by address and action, in plan order. */
export function resourceActionsOf(changes: readonly JsonPlanChange[] | undefined): ResourceAction[] {
  return (changes ?? []).flatMap((entry) => {
    const action = planAction(entry.change?.actions ?? []);
    return entry.address && action ? [{ address: entry.address, action }] : [];
  });
}

/** `first`'s entries, then `second`'s for addresses not seen yet; at most `limit`. */
export function mergeResourceActions(first: readonly ResourceAction[], second: readonly ResourceAction[], limit = 100): ResourceAction[] {
  const seen = new Map<string, ResourceAction>();
  for (const resource of [...first, ...second]) if (!seen.has(resource.address)) seen.set(resource.address, resource);
  return [...seen.values()].slice(0, limit);
}
