/**
 * @module HCP Terraform runs that change nothing, for drift detection and destroy previews: plan-only
 * runs on the configuration last uploaded, with the workspace's variables (what the task last
 * applied). Drift is a refresh-only plan (resources changed outside Terraform, `resource_drift`)
 * then a normal plan (what an apply would change, `resource_changes`), both read by resource address
 * from the plan's JSON output. The resources a workspace still manages come from its current state.
 */
import type { DriftReport, InspectPlan, JsonPlanChange } from "../../../core/plugin-api/mod.ts";
import { CtsError, mergeResourceChanges, resourceChangesOf } from "../../../core/plugin-api/mod.ts";
import type { Logger } from "../../../core/plugin-api/mod.ts";
import { planSummary } from "./plan-summary.ts";
import { followRun, NO_HOOKS } from "./run-follower.ts";
import { failureLog, queueRun, readLog, runUrl } from "./runs.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

/** At most this many resources per report, so a run record stays small. */
const MAX_RESOURCES = 100;

export interface PlanOnlyContext {
  readonly client: TfcClient;
  readonly ws: WorkspaceInfo;
  readonly configurationVersionId: string;
  readonly taskName: string;
  readonly logger: Logger;
  /** How often a run that keeps waiting (queued behind others, a lock) is logged. */
  readonly logEveryMs: number;
  /** The caller's signal and the daemon's stop: either ends the wait. */
  readonly signal: AbortSignal;
}

/** Queues a plan-only run and follows it; returns it with its plan once it planned. */
async function planOnly(ctx: PlanOnlyContext, what: string, flags: { refreshOnly?: boolean; isDestroy?: boolean }) {
  const { signal } = ctx;
  const queued = await queueRun(ctx.client, ctx.ws, {
    message: `${what} by cts-runtime for task "${ctx.taskName}"`,
    configurationVersionId: ctx.configurationVersionId, planOnly: true, ...flags,
  }, signal);
  const url = runUrl(ctx.ws, queued.id);
  const { run } = await followRun({
    client: ctx.client, ws: ctx.ws, runId: queued.id, url, logger: ctx.logger, signal, hooks: NO_HOOKS, logEveryMs: ctx.logEveryMs,
  });
  const planRel = run.relationships?.plan?.data;
  if (String(run.attributes.status) !== "planned_and_finished" || !planRel || Array.isArray(planRel)) {
    const tail = await failureLog(ctx.client, run, signal).catch(() => "");
    throw new CtsError("CTS_ERR_DRIVER",
      `Cannot ${what.toLowerCase()} for task "${ctx.taskName}": run ${run.id} ended "${run.attributes.status}" (${url})${tail ? `: ${tail}` : ""}`);
  }
  return { url, planId: planRel.id };
}

async function jsonPlan(ctx: PlanOnlyContext, planId: string): Promise<{ resource_drift?: JsonPlanChange[]; resource_changes?: JsonPlanChange[] }> {
  // An authenticated API call whose body is Terraform's JSON plan rather than a JSON:API document.
  const plan = await ctx.client.api(`read the JSON plan ${planId}`, "GET", `/plans/${planId}/json-output`, undefined, { signal: ctx.signal });
  return (plan ?? {}) as { resource_drift?: JsonPlanChange[]; resource_changes?: JsonPlanChange[] };
}

export async function checkDriftRuns(ctx: PlanOnlyContext): Promise<DriftReport> {
  const refreshed = await planOnly(ctx, "Drift check (refresh-only plan)", { refreshOnly: true });
  const drifted = resourceChangesOf((await jsonPlan(ctx, refreshed.planId)).resource_drift, { reads: false });
  const planned = await planOnly(ctx, "Drift check (plan)", {});
  const applying = resourceChangesOf((await jsonPlan(ctx, planned.planId)).resource_changes, { reads: false });
  const resources = mergeResourceChanges(drifted, applying, MAX_RESOURCES);
  return { drifted: resources.length > 0, resources, url: planned.url };
}

export async function planDestroyRun(ctx: PlanOnlyContext): Promise<InspectPlan> {
  const { signal } = ctx;
  const { url, planId } = await planOnly(ctx, "Destroy plan", { isDestroy: true });
  const plan = (await ctx.client.api(`read plan ${planId}`, "GET", `/plans/${planId}`, undefined, { signal }))!.data as Resource;
  const a = plan.attributes;
  const log = typeof a["log-read-url"] === "string" ? await readLog(ctx.client, a["log-read-url"], signal) : "";
  const counts = { add: Number(a["resource-additions"] ?? 0), change: Number(a["resource-changes"] ?? 0), destroy: Number(a["resource-destructions"] ?? 0) };
  return { changesPresent: a["has-changes"] === true, plan: planSummary(counts, log, url), url };
}

interface StateResource {
  readonly module?: string;
  readonly mode?: string;
  readonly type?: string;
  readonly name?: string;
  readonly instances?: readonly { readonly index_key?: string | number }[];
}

/** The addresses in the workspace's current state (downloaded as HCP Terraform hands it out). */
export async function workspaceResources(ctx: PlanOnlyContext): Promise<readonly string[] | undefined> {
  const { signal } = ctx;
  const doc = await ctx.client.api(`read the current state of workspace "${ctx.ws.name}"`, "GET",
    `/workspaces/${ctx.ws.id}/current-state-version`, undefined, { allow404: true, signal });
  const url = (doc?.data as Resource | undefined)?.attributes["hosted-state-download-url"];
  if (typeof url !== "string") return doc ? undefined : [];
  const state = JSON.parse(await ctx.client.getText("download the workspace's state", url, signal)) as { resources?: StateResource[] };
  const addresses: string[] = [];
  for (const resource of state.resources ?? []) {
    const base = `${resource.module ? `${resource.module}.` : ""}${resource.mode === "data" ? "data." : ""}${resource.type}.${resource.name}`;
    for (const instance of resource.instances ?? [{}]) {
      const key = instance.index_key;
      addresses.push(key === undefined ? base : typeof key === "number" ? `${base}[${key}]` : `${base}[${JSON.stringify(key)}]`);
    }
  }
  return addresses.slice(0, MAX_RESOURCES);
}
