/**
 * @module Resource counts of a plan (from `terraform show -json` of the saved plan) and of an
 * apply (from its closing "Apply complete!" line), as plans and applies report them.
 */

export interface ResourceCounts {
  readonly additions: number;
  readonly changes: number;
  readonly destructions: number;
  readonly imports: number;
}

export const NO_COUNTS: ResourceCounts = { additions: 0, changes: 0, destructions: 0, imports: 0 };

interface ResourceChange {
  readonly change?: { readonly actions?: readonly string[]; readonly importing?: unknown };
}

/** A replacement counts as one addition and one destruction, as Terraform's own summary does. */
export function planCounts(jsonPlan: string): ResourceCounts {
  const plan = JSON.parse(jsonPlan) as { resource_changes?: ResourceChange[] };
  let additions = 0;
  let changes = 0;
  let destructions = 0;
  let imports = 0;
  for (const resource of plan.resource_changes ?? []) {
    const actions = resource.change?.actions ?? [];
    if (actions.includes("create")) additions++;
    if (actions.includes("update")) changes++;
    if (actions.includes("delete")) destructions++;
    if (resource.change?.importing) imports++;
  }
  return { additions, changes, destructions, imports };
}

/** Counts from "Apply complete! Resources: 1 imported, 1 added, 0 changed, 0 destroyed." */
export function applyCounts(output: string): ResourceCounts | undefined {
  const match = /(?:Apply|Destroy) complete! Resources: (?:(\d+) imported, )?(\d+) added, (\d+) changed, (\d+) destroyed/.exec(output);
  if (!match) return undefined;
  return {
    imports: Number(match[1] ?? 0),
    additions: Number(match[2]),
    changes: Number(match[3]),
    destructions: Number(match[4]),
  };
}
