/**
 * @module Plans, applies and cost estimates: read, the JSON plan, and the logs behind
 * `log-read-url` (no token, as HCP Terraform's archivist) paged by `offset` and `limit`.
 */
import type { Hono } from "hono";
import { invalidAttribute, notFound } from "../http/api-error.ts";
import { single } from "../http/json-api.ts";
import { findRun, param, type ServerContext, viewContext } from "../http/server-context.ts";
import type { PlanRecord } from "../state/records.ts";
import { applyView, costEstimateView, planView } from "../views/run-views.ts";

function optionalCount(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw invalidAttribute(name, `${name} must be a non-negative integer`, "query");
  return value;
}

export function phaseRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const findPlan = (id: string): PlanRecord => {
    const plan = state.plans.get(id);
    if (!plan) throw notFound();
    return plan;
  };
  const jsonPlan = (plan: PlanRecord): Response => {
    if (plan.jsonPlan === null) throw notFound();
    return new Response(plan.jsonPlan, { headers: { "Content-Type": "application/json" } });
  };

  app.get("/api/v2/plans/:id", (c) => single(planView(findPlan(param(c, "id")), viewContext(server, c))));
  app.get("/api/v2/plans/:id/json-output", (c) => jsonPlan(findPlan(param(c, "id"))));
  app.get("/api/v2/plans/:id/json-output-redacted", (c) => jsonPlan(findPlan(param(c, "id"))));
  app.get("/api/v2/runs/:id/plan/json-output", (c) => jsonPlan(findPlan(findRun(server, param(c, "id")).planId)));

  app.get("/api/v2/applies/:id", (c) => {
    const apply = state.applies.get(param(c, "id"));
    if (!apply) throw notFound();
    return single(applyView(apply, viewContext(server, c)));
  });

  app.get("/api/v2/cost-estimates/:id", (c) => {
    const estimate = state.costEstimates.get(param(c, "id"));
    if (!estimate) throw notFound();
    return single(costEstimateView(estimate));
  });

  app.get("/_archivist/v1/logs/:secret", (c) => {
    const secret = param(c, "secret");
    const phase = [...state.plans.values(), ...state.applies.values()].find((candidate) => candidate.logSecret === secret);
    if (!phase) throw notFound();
    const bytes = phase.log.read(optionalCount(c.req.query("offset"), "offset") ?? 0, optionalCount(c.req.query("limit"), "limit"));
    return new Response(bytes, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}
