/** @module JSON:API views of runs, their plan, apply, cost estimate and run events. */
import type { Resource } from "../http/json-api.ts";
import { toOne } from "../http/json-api.ts";
import { runActions } from "../runs/run-transitions.ts";
import type { CostEstimateRecord, PhaseRecord, PlanRecord, RunEventRecord, RunRecord } from "../state/records.ts";
import type { ViewContext } from "./view-context.ts";

const RUN_PERMISSIONS = {
  "can-apply": true,
  "can-cancel": true,
  "can-comment": true,
  "can-discard": true,
  "can-force-execute": true,
  "can-force-cancel": true,
  "can-override-policy-check": true,
};

export function runView(run: RunRecord, ctx: ViewContext): Resource {
  const events = ctx.state.runEvents.get(run.id) ?? [];
  return {
    id: run.id,
    type: "runs",
    attributes: {
      "actions": runActions(run),
      "allow-config-generation": false,
      "allow-empty-apply": run.allowEmptyApply,
      "auto-apply": run.autoApply,
      "canceled-at": run.statusTimestamps["canceled-at"] ?? null,
      "created-at": run.createdAt,
      "debugging-mode": false,
      "force-cancel-available-at": run.forceCancelAvailableAt,
      "has-changes": run.hasChanges,
      "is-destroy": run.isDestroy,
      "message": run.message,
      "plan-only": run.planOnly,
      "position-in-queue": ctx.positionInQueue(run.id),
      "refresh": run.refresh,
      "refresh-only": run.refreshOnly,
      "replace-addrs": run.replaceAddrs,
      "save-plan": false,
      "source": run.source,
      "status": run.status,
      "status-timestamps": run.statusTimestamps,
      "target-addrs": run.targetAddrs,
      "terraform-version": run.terraformVersion,
      "trigger-reason": "manual",
      "variables": run.variables,
      "permissions": RUN_PERMISSIONS,
    },
    relationships: {
      "workspace": toOne("workspaces", run.workspaceId),
      "configuration-version": toOne("configuration-versions", run.configurationVersionId),
      "plan": toOne("plans", run.planId),
      "apply": toOne("applies", run.applyId),
      "cost-estimate": toOne("cost-estimates", run.costEstimateId),
      "created-by": toOne("users", "user-tfc-dev"),
      "policy-checks": { data: [] },
      "task-stages": { data: [] },
      "run-events": { data: events.map((event) => ({ id: event.id, type: "run-events" })) },
    },
    links: { self: `/api/v2/runs/${run.id}` },
  };
}

function phaseAttributes(phase: PhaseRecord, ctx: ViewContext): Record<string, unknown> {
  return {
    "status": phase.status,
    "status-timestamps": phase.statusTimestamps,
    "resource-additions": phase.resourceAdditions,
    "resource-changes": phase.resourceChanges,
    "resource-destructions": phase.resourceDestructions,
    "resource-imports": phase.resourceImports,
    "log-read-url": `${ctx.origin}/_archivist/v1/logs/${phase.logSecret}`,
    "execution-details": { mode: "remote" },
  };
}

export function planView(plan: PlanRecord, ctx: ViewContext): Resource {
  return {
    id: plan.id,
    type: "plans",
    attributes: {
      ...phaseAttributes(plan, ctx),
      "has-changes": plan.hasChanges,
      "generated-configuration": false,
      "actions": { "is-exportable": false },
      "permissions": { "can-export": false },
    },
    relationships: { "run": toOne("runs", plan.runId), "exports": { data: [] } },
    links: { "self": `/api/v2/plans/${plan.id}`, "json-output": `/api/v2/plans/${plan.id}/json-output` },
  };
}

export function applyView(apply: PhaseRecord, ctx: ViewContext): Resource {
  return {
    id: apply.id,
    type: "applies",
    attributes: phaseAttributes(apply, ctx),
    relationships: { run: toOne("runs", apply.runId) },
    links: { self: `/api/v2/applies/${apply.id}` },
  };
}

/** No prices are known here: every resource is counted and none is matched, as for unpriced resources. */
export function costEstimateView(estimate: CostEstimateRecord): Resource {
  return {
    id: estimate.id,
    type: "cost-estimates",
    attributes: {
      "status": estimate.status,
      "status-timestamps": estimate.statusTimestamps,
      "error-message": null,
      "resources-count": estimate.resourcesCount,
      "matched-resources-count": 0,
      "unmatched-resources-count": estimate.resourcesCount,
      "prior-monthly-cost": "0.0",
      "proposed-monthly-cost": "0.0",
      "delta-monthly-cost": "0.0",
    },
    relationships: { run: toOne("runs", estimate.runId) },
    links: { self: `/api/v2/cost-estimates/${estimate.id}` },
  };
}

export function runEventView(event: RunEventRecord): Resource {
  return {
    id: event.id,
    type: "run-events",
    attributes: { "action": event.action, "created-at": event.createdAt, "description": event.description },
    relationships: { actor: toOne("users", "user-tfc-dev"), target: toOne("runs", event.runId) },
  };
}
