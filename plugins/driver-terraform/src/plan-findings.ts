/**
 * @module What a saved plan says, from `terraform show -json <plan>`: the resources it touches by
 * address and action (no-ops left out), and which outputs of the task's module are sensitive (so
 * their values are never read). The JSON holds variable values and secrets: only addresses,
 * actions, output names and flags leave this file.
 */
import { planResourceChanges, type ResourceChange } from "../../../core/plugin-api/mod.ts";

export interface PlanFindings {
  readonly resources: ResourceChange[];
  /** The module's output names, and which of them must not be read (sensitive or ephemeral). */
  readonly outputs: { readonly names: string[]; readonly hidden: string[] };
}

interface PlanJson {
  readonly configuration?: {
    readonly root_module?: {
      readonly module_calls?: Readonly<Record<string, {
        readonly module?: { readonly outputs?: Readonly<Record<string, { readonly sensitive?: unknown; readonly ephemeral?: unknown }>> };
      }>>;
    };
  };
}

/** Reads the plan JSON for module `moduleName` (the task's name in the root module CTS writes). */
export function planFindings(json: string, moduleName: string): PlanFindings {
  const plan = JSON.parse(json) as PlanJson;
  const resources: ResourceChange[] = planResourceChanges(plan);
  const declared = plan.configuration?.root_module?.module_calls?.[moduleName]?.module?.outputs ?? {};
  const names = Object.keys(declared).sort();
  const hidden = names.filter((name) => declared[name]!.sensitive === true || declared[name]!.ephemeral === true);
  return { resources, outputs: { names, hidden } };
}
