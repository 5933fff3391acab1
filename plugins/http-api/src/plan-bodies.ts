/**
 * @module A plan (`InspectPlan`) as the API answers it: under `inspect` for PATCH and DELETE, under
 * `run` for `POST /v1/tasks?run=inspect`, which keeps CTS's key for the HCP Terraform run's URL.
 */
import type { InspectPlan } from "../../../core/plugin-api/mod.ts";
import type { TaskResponse } from "./schemas/responses.schema.ts";
import type { InspectPlanBody } from "./schemas/task-changes.schema.ts";

export function inspectPlanBody(plan: InspectPlan | undefined): InspectPlanBody {
  return { changes_present: plan?.changesPresent ?? false, plan: plan?.plan ?? "", ...(plan?.url ? { url: plan.url } : {}) };
}

export function createRunBody(plan: InspectPlan | undefined): NonNullable<TaskResponse["run"]> {
  return { changes_present: plan?.changesPresent ?? false, plan: plan?.plan ?? "", ...(plan?.url ? { tfc_run_url: plan.url } : {}) };
}
