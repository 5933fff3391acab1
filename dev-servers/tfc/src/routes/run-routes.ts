/**
 * @module Runs: create (`POST /runs`), read with `include`, list per workspace, run events, the
 * actions apply / discard / cancel / force-cancel, and the empty task-stage and policy-check
 * lists (this server has neither run tasks nor policies).
 */
import type { Context, Hono } from "hono";
import { ApiError, invalidAttribute, notFound } from "../http/api-error.ts";
import { many, type Resource, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readActionBody, readResource, relationshipId } from "../http/request-body.ts";
import { findRun, findWorkspace, param, type ServerContext, viewContext } from "../http/server-context.ts";
import type { RunRecord, RunVariable } from "../state/records.ts";
import { configurationVersionView } from "../views/configuration-views.ts";
import { applyView, costEstimateView, planView, runEventView, runView } from "../views/run-views.ts";
import { workspaceView } from "../views/workspace-views.ts";
import { requestSource } from "./configuration-routes.ts";

const INCLUDES = new Set(["plan", "apply", "cost_estimate", "configuration_version", "workspace", "task_stages", "run_events", "created_by", "policy_checks"]);

function runVariables(value: unknown): RunVariable[] {
  if (value === undefined || value === null) return [];
  const valid = Array.isArray(value) && value.every((item) =>
    typeof item === "object" && item !== null && typeof item.key === "string" && typeof item.value === "string");
  if (!valid) throw invalidAttribute("variables", "variables must be a list of {key, value} strings");
  return (value as RunVariable[]).map(({ key, value: expression }) => ({ key, value: expression }));
}

function includedFor(server: ServerContext, c: Context, runs: readonly RunRecord[]): Resource[] {
  const names = (c.req.query("include") ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.find((name) => !INCLUDES.has(name));
  if (unknown) throw new ApiError(400, "bad request", "Invalid include parameter");
  const { state } = server;
  const ctx = viewContext(server, c);
  const out: Resource[] = [];
  for (const run of runs) {
    if (names.includes("plan")) out.push(planView(state.plans.get(run.planId)!, ctx));
    if (names.includes("apply")) out.push(applyView(state.applies.get(run.applyId)!, ctx));
    const estimate = run.costEstimateId ? state.costEstimates.get(run.costEstimateId) : undefined;
    if (names.includes("cost_estimate") && estimate) out.push(costEstimateView(estimate));
    const cv = state.configurationVersions.get(run.configurationVersionId);
    if (names.includes("configuration_version") && cv) out.push(configurationVersionView(cv, ctx));
    const ws = state.workspaces.get(run.workspaceId);
    if (names.includes("workspace") && ws) out.push(workspaceView(ws, ctx));
    if (names.includes("run_events")) out.push(...(state.runEvents.get(run.id) ?? []).map(runEventView));
  }
  return out;
}

export function runRoutes(app: Hono, server: ServerContext): void {
  const { state, engine } = server;
  const emptyList = (c: Context) => many(paginate([], new URL(c.req.url)));

  app.post("/api/v2/runs", async (c) => {
    const { attributes: a, relationships } = await readResource(c.req.raw);
    const workspaceId = relationshipId(relationships, "workspace");
    if (!workspaceId) throw invalidAttribute("workspace", "A run needs a workspace", "relationships");
    const ws = findWorkspace(server, workspaceId);
    if (ws.executionMode === "local") throw invalidAttribute("workspace", "The workspace uses local execution: its runs happen in the Terraform CLI", "relationships");
    const cvId = relationshipId(relationships, "configuration-version") ?? ws.currentConfigurationVersionId;
    const cv = cvId ? state.configurationVersions.get(cvId) : undefined;
    if (!cv || cv.workspaceId !== ws.id) throw invalidAttribute("configuration-version", "The workspace has no such configuration version", "relationships");
    if (cv.status !== "uploaded") throw invalidAttribute("configuration-version", `The configuration version is ${cv.status}, not uploaded`, "relationships");
    const isDestroy = a.boolean("is-destroy") ?? false;
    if (isDestroy && !ws.allowDestroyPlan) throw invalidAttribute("is-destroy", "The workspace does not allow destroy plans");
    const run = engine.create({
      workspace: ws,
      configurationVersionId: cv.id,
      message: a.string("message") ?? (requestSource(c) === "terraform+cloud" ? "Queued manually using Terraform" : "Triggered via API"),
      source: requestSource(c),
      isDestroy,
      refresh: a.boolean("refresh") ?? true,
      refreshOnly: a.boolean("refresh-only") ?? false,
      autoApply: a.boolean("auto-apply") ?? ws.autoApply,
      planOnly: (a.boolean("plan-only") ?? false) || cv.speculative,
      allowEmptyApply: a.boolean("allow-empty-apply") ?? false,
      targetAddrs: a.stringArray("target-addrs") ?? null,
      replaceAddrs: a.stringArray("replace-addrs") ?? null,
      variables: runVariables(a.value("variables")),
    });
    return single(runView(run, viewContext(server, c)), [], 201);
  });

  app.get("/api/v2/runs/:id", (c) => {
    const run = findRun(server, param(c, "id"));
    return single(runView(run, viewContext(server, c)), includedFor(server, c, [run]));
  });

  app.get("/api/v2/workspaces/:id/runs", (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const statuses = c.req.query("filter[status]")?.split(",");
    const runs = state.runsOf(ws.id).filter((run) => !statuses || statuses.includes(run.status));
    const page = paginate(runs, new URL(c.req.url));
    const ctx = viewContext(server, c);
    return many({ ...page, items: page.items.map((run) => runView(run, ctx)) }, includedFor(server, c, page.items));
  });

  app.get("/api/v2/runs/:id/run-events", (c) => {
    const run = findRun(server, param(c, "id"));
    return many(paginate((state.runEvents.get(run.id) ?? []).map(runEventView), new URL(c.req.url)));
  });

  app.get("/api/v2/runs/:id/task-stages", (c) => {
    findRun(server, param(c, "id"));
    return emptyList(c);
  });

  app.get("/api/v2/runs/:id/policy-checks", (c) => {
    findRun(server, param(c, "id"));
    return emptyList(c);
  });

  const actions: Record<string, (run: RunRecord) => void> = {
    "apply": (run) => engine.confirm(run),
    "discard": (run) => engine.discard(run),
    "cancel": (run) => engine.cancel(run),
    "force-cancel": (run) => engine.forceCancel(run),
  };
  app.post("/api/v2/runs/:id/actions/:action", async (c) => {
    const act = actions[param(c, "action")];
    if (!act) throw notFound();
    const run = findRun(server, param(c, "id"));
    await readActionBody(c.req.raw);
    act(run);
    return new Response(null, { status: 202 });
  });
}
