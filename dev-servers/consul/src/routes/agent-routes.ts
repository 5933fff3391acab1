/** @module /v1/agent: self, members, services, service/:id, checks, service and check (de)registration, TTL updates. */
import type { Hono } from "hono";
import { badRequest, notFound } from "../api-error.ts";
import { type AgentCheck, parseAgentCheck } from "../agent/agent-check-body.ts";
import { AGENT_SERVICE_SCHEMA, HEALTH_CHECK_SCHEMA } from "../bexpr/schemas.ts";
import { field, stringField } from "../exact-json.ts";
import { blockingQuery } from "../http/blocking-query.ts";
import { parseReadOptions } from "../http/query-options.ts";
import { readJsonBody } from "../http/read-body.ts";
import { json } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import type { CheckStatus } from "../state/types.ts";
import { agentServiceJson, healthCheckJson } from "./catalog-json.ts";
import { filterRows } from "./read-helpers.ts";
import { parseService, parseStatus } from "./registration-body.ts";
import { agentSelf, agentMember } from "./agent-self.ts";

type Row = Record<string, unknown>;

function services(ctx: RouteContext): Response {
  const { state, authz } = ctx;
  const filter = filterRows<Row>(ctx.params.get("filter") ?? undefined, AGENT_SERVICE_SCHEMA);
  const out: Record<string, unknown> = {};
  const rows = state.catalog.nodeServices(state.nodeName)
    .filter((s) => authz.allowed("service", s.service, "read"))
    .map((s) => agentServiceJson(s, state.datacenter));
  for (const row of filter(rows)) out[row.ID as string] = row;
  return json(out);
}

/** FNV-1a over the JSON: an opaque content hash for hash-based blocking. */
function contentHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

async function service(ctx: RouteContext): Promise<Response> {
  const { state, params } = ctx;
  const id = ctx.rest;
  ctx.authz.require("service", state.catalog.getService(state.nodeName, id)?.service ?? id, "read");
  const options = parseReadOptions(params, state.datacenter);
  const wanted = params.get("hash") ?? "";
  const run = () => {
    const instance = state.catalog.getService(state.nodeName, id);
    const body = instance ? agentServiceJson(instance, state.datacenter) : undefined;
    const hash = body ? contentHash(JSON.stringify(body)) : "";
    // Hash blocking mapped onto the index loop: "newer" means the hash differs from the client's.
    return { index: wanted !== "" && hash === wanted ? 1 : 2, value: { body, hash } };
  };
  const { value } = await blockingQuery(ctx, { ...options, minIndex: wanted ? 1 : 0 },
    [`node:${state.nodeName.toLowerCase()}`], run);
  if (!value.body) throw notFound(`unknown service ID: ${id}`);
  return new Response(JSON.stringify({ ...value.body, ContentHash: value.hash }), {
    headers: { "Content-Type": "application/json", "X-Consul-ContentHash": value.hash },
  });
}

function checks(ctx: RouteContext): Response {
  const { state, authz } = ctx;
  const filter = filterRows<Row>(ctx.params.get("filter") ?? undefined, HEALTH_CHECK_SCHEMA);
  const out: Record<string, unknown> = {};
  const rows = state.catalog.nodeChecks(state.nodeName)
    .filter((c) => c.serviceName === "" || authz.allowed("service", c.serviceName, "read"))
    .map(healthCheckJson);
  for (const row of filter(rows)) out[row.CheckID as string] = row;
  return json(out);
}

async function registerService(ctx: RouteContext): Promise<Response> {
  const { state, authz, server } = ctx;
  const body = await readJsonBody(ctx.request, "Request decode failed");
  // Consul CE has no namespaces: a registration naming one fails (CTS's e2e relies on it to see its
  // own registration refused while it keeps running).
  const namespace = field(body, "Namespace");
  if (typeof namespace === "string" && namespace !== "" && namespace !== "default") {
    throw badRequest(`Request decode failed: json: unknown field "Namespace" (Namespaces are a Consul Enterprise feature)`);
  }
  const instance = parseService(body, state.nodeName, "Name");
  authz.require("service", instance.service, "write");
  const checkBodies = [field(body, "Check"), ...((field(body, "Checks") as unknown[] | null) ?? [])]
    .filter((c) => c !== null && c !== undefined);
  const stored = { ...instance, createIndex: 0, modifyIndex: 0 };
  const parsed: AgentCheck[] = checkBodies.map((c, i) => parseAgentCheck(c, state.nodeName, stored, i, checkBodies.length));
  const replace = ctx.params.has("replace-existing-checks");
  state.write((tx) => {
    state.catalog.putService(tx, instance);
    for (const old of state.catalog.nodeChecks(state.nodeName)) {
      if (old.serviceId === instance.id && replace && !parsed.some((p) => p.check.checkId === old.checkId)) {
        server.agentChecks.deactivate(old.checkId);
        state.deleteCheck(tx, state.nodeName, old.checkId);
      }
    }
    parsed.forEach(({ check }, i) => {
      const previous = state.catalog.getCheck(state.nodeName, check.checkId);
      // Re-registering keeps a known status unless the body sets one (the agent keeps its check state).
      const keep = previous !== undefined && field(checkBodies[i], "Status") === undefined;
      state.putCheck(tx, { ...check, status: keep ? previous.status : check.status, output: previous?.output ?? "" });
    });
  });
  for (const { spec } of parsed) server.agentChecks.activate(spec);
  return new Response(null, { status: 200 });
}

function deregisterService(ctx: RouteContext): Response {
  const { state, authz, server } = ctx;
  const id = ctx.rest;
  const existing = state.catalog.getService(state.nodeName, id);
  if (!existing) {
    throw notFound(`Unknown service ID "${id}". Ensure that the service ID is passed, not the service name.`);
  }
  authz.require("service", existing.service, "write");
  server.agentChecks.deregisterService(id);
  return new Response(null, { status: 200 });
}

async function registerCheck(ctx: RouteContext): Promise<Response> {
  const { state, authz, server } = ctx;
  const body = await readJsonBody(ctx.request, "Request decode failed");
  const serviceId = stringField(body, "ServiceID") ?? "";
  const instance = serviceId ? state.catalog.getService(state.nodeName, serviceId) : undefined;
  if (serviceId && !instance) throw badRequest(`ServiceID "${serviceId}" does not exist`);
  if (instance) authz.require("service", instance.service, "write");
  else authz.require("node", state.nodeName, "write");
  const { check, spec } = parseAgentCheck(body, state.nodeName, instance);
  state.write((tx) => state.putCheck(tx, check));
  server.agentChecks.activate(spec);
  return new Response(null, { status: 200 });
}

function deregisterCheck(ctx: RouteContext): Response {
  const { state, server } = ctx;
  const id = ctx.rest;
  const check = state.catalog.getCheck(state.nodeName, id);
  if (!check) throw notFound(`Unknown check ID "${id}". Ensure that the check ID is passed, not the check name.`);
  authorizeCheck(ctx, check.serviceName);
  server.agentChecks.deactivate(id);
  state.write((tx) => state.deleteCheck(tx, state.nodeName, id));
  return new Response(null, { status: 200 });
}

function authorizeCheck(ctx: RouteContext, serviceName: string): void {
  if (serviceName) ctx.authz.require("service", serviceName, "write");
  else ctx.authz.require("node", ctx.state.nodeName, "write");
}

function ttlUpdate(status: CheckStatus | "body") {
  return async (ctx: RouteContext): Promise<Response> => {
    const { state, server } = ctx;
    const id = ctx.rest;
    let next: CheckStatus = status === "body" ? "passing" : status;
    let output = ctx.params.get("note") ?? "";
    if (status === "body") {
      const body = await readJsonBody(ctx.request, "Request decode failed");
      next = parseStatus(field(body, "Status"), "passing");
      output = stringField(body, "Output") ?? "";
    }
    const check = state.catalog.getCheck(state.nodeName, id);
    if (check) authorizeCheck(ctx, check.serviceName);
    server.agentChecks.updateTtl(id, next, output);
    return new Response(null, { status: 200 });
  };
}

export function agentRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/agent/self", { GET: (ctx) => { ctx.authz.require("agent", ctx.state.nodeName, "read"); return json(agentSelf(ctx.state)); } });
  route(app, server, "/v1/agent/members", { GET: (ctx) => json([agentMember(ctx.state)]) });
  route(app, server, "/v1/agent/services", { GET: services });
  route(app, server, "/v1/agent/service/register", { PUT: registerService });
  route(app, server, "/v1/agent/service/deregister/", { PUT: deregisterService });
  route(app, server, "/v1/agent/service/", { GET: service });
  route(app, server, "/v1/agent/checks", { GET: checks });
  route(app, server, "/v1/agent/check/register", { PUT: registerCheck });
  route(app, server, "/v1/agent/check/deregister/", { PUT: deregisterCheck });
  route(app, server, "/v1/agent/check/pass/", { PUT: ttlUpdate("passing") });
  route(app, server, "/v1/agent/check/warn/", { PUT: ttlUpdate("warning") });
  route(app, server, "/v1/agent/check/fail/", { PUT: ttlUpdate("critical") });
  route(app, server, "/v1/agent/check/update/", { PUT: ttlUpdate("body") });
}
