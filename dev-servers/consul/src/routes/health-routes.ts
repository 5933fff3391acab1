/** @module /v1/health: service (tag, passing, filter, node-meta), checks/:service, state/:state, node/:node. */
import type { Hono } from "hono";
import { badRequest } from "../api-error.ts";
import { HEALTH_CHECK_SCHEMA, SERVICE_ENTRY_SCHEMA } from "../bexpr/schemas.ts";
import { blockingQuery } from "../http/blocking-query.ts";
import { parseBoolParam, parseReadOptions } from "../http/query-options.ts";
import { json } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import type { HealthCheck } from "../state/types.ts";
import { healthCheckJson, serviceEntryJson } from "./catalog-json.ts";
import { canSeeInstance, filterRows, nodeMetaMatcher, tagMatcher } from "./read-helpers.ts";

type Row = Record<string, unknown>;

async function healthService(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const name = ctx.rest;
  if (name === "") throw badRequest("Missing service name");
  const options = parseReadOptions(params, state.datacenter);
  const passing = parseBoolParam(params, "passing");
  const filter = filterRows<Row>(options.filter, SERVICE_ENTRY_SCHEMA);
  const tags = tagMatcher(params);
  const meta = nodeMetaMatcher(params);
  const { index, value } = await blockingQuery(ctx, options, [`svc:${name.toLowerCase()}`], () => {
    const rows: Row[] = [];
    // Instances of a service often share nodes: each node's checks are listed (sorted) once.
    const checksByNode = new Map<string, HealthCheck[]>();
    for (const instance of state.catalog.instancesOf(name)) {
      const node = state.catalog.getNode(instance.node);
      if (!node || !meta(node) || !tags(instance) || !canSeeInstance(authz, instance)) continue;
      const nodeKey = instance.node.toLowerCase();
      let checks = checksByNode.get(nodeKey);
      if (!checks) checksByNode.set(nodeKey, checks = state.catalog.nodeChecks(instance.node));
      rows.push(serviceEntryJson(node, instance, checks));
    }
    let out = filter(rows);
    if (passing) {
      out = out.filter((row) => (row.Checks as Row[]).every((check) => check.Status === "passing"));
    }
    return { index: state.catalog.serviceIndex(name), value: out };
  });
  return json(value, { index, consistency: options.consistency });
}

function checkRows(
  ctx: RouteContext, topic: string, index: () => number, select: () => HealthCheck[],
): Promise<Response> {
  const { params, state, authz } = ctx;
  const options = parseReadOptions(params, state.datacenter);
  const filter = filterRows<Row>(options.filter, HEALTH_CHECK_SCHEMA);
  const meta = nodeMetaMatcher(params);
  const useMeta = params.has("node-meta");
  return blockingQuery(ctx, options, [topic], () => {
    const visible = select().filter((check) =>
      authz.allowed("node", check.node, "read") &&
      (check.serviceName === "" || authz.allowed("service", check.serviceName, "read")) &&
      (!useMeta || meta(state.catalog.getNode(check.node)))
    );
    return { index: index(), value: filter(visible.map(healthCheckJson)) };
  }).then(({ index, value }) => json(value, { index, consistency: options.consistency }));
}

function healthChecks(ctx: RouteContext): Promise<Response> {
  const name = ctx.rest;
  if (name === "") throw badRequest("Missing service name");
  if (ctx.params.has("tag")) throw badRequest("Tag filtering is not supported");
  const { catalog } = ctx.state;
  return checkRows(ctx, `svc:${name.toLowerCase()}`, () => catalog.serviceIndex(name), () =>
    catalog.allChecks().filter((c) => c.serviceName.toLowerCase() === name.toLowerCase()));
}

function healthState(ctx: RouteContext): Promise<Response> {
  const wanted = ctx.rest;
  if (wanted === "") throw badRequest("Missing check state");
  if (!["any", "passing", "warning", "critical"].includes(wanted)) throw badRequest("Invalid check state");
  const { catalog } = ctx.state;
  return checkRows(ctx, "catalog:checks", () => catalog.checksIndex, () =>
    catalog.allChecks().filter((c) => wanted === "any" || c.status === wanted));
}

function healthNode(ctx: RouteContext): Promise<Response> {
  const name = ctx.rest;
  if (name === "") throw badRequest("Missing node name");
  const { catalog } = ctx.state;
  return checkRows(ctx, `node:${name.toLowerCase()}`, () => catalog.nodeIndex(name), () => catalog.nodeChecks(name));
}

export function healthRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/health/service/", { GET: healthService });
  route(app, server, "/v1/health/checks/", { GET: healthChecks });
  route(app, server, "/v1/health/state/", { GET: healthState });
  route(app, server, "/v1/health/node/", { GET: healthNode });
}
