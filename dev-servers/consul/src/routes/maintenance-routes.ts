/** @module /v1/agent/maintenance and /v1/agent/service/maintenance/:id: a critical maintenance check, on or off. */
import type { Hono } from "hono";
import { badRequest, notFound } from "../api-error.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import { EMPTY_DEFINITION } from "../state/types.ts";

const NODE_CHECK = "_node_maintenance";
const serviceCheckId = (serviceId: string) => `_service_maintenance:${serviceId}`;

function enableParam(params: URLSearchParams): boolean {
  const value = params.get("enable");
  if (value === null || value === "") throw badRequest("Missing value for enable");
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw badRequest(`Invalid value for enable: "${value}"`);
}

function toggle(ctx: RouteContext, checkId: string, enable: boolean, fields: {
  name: string; notes: string; serviceId: string; serviceName: string; serviceTags: readonly string[];
}): Response {
  const { state } = ctx;
  state.write((tx) => {
    if (!enable) {
      state.deleteCheck(tx, state.nodeName, checkId);
      return;
    }
    state.putCheck(tx, {
      node: state.nodeName, checkId, name: fields.name, status: "critical", notes: fields.notes, output: "",
      serviceId: fields.serviceId, serviceName: fields.serviceName, serviceTags: fields.serviceTags,
      type: "maintenance", definition: EMPTY_DEFINITION,
    });
  });
  return new Response(null, { status: 200 });
}

function nodeMaintenance(ctx: RouteContext): Response {
  const enable = enableParam(ctx.params);
  ctx.authz.require("node", ctx.state.nodeName, "write");
  return toggle(ctx, NODE_CHECK, enable, {
    name: "Node Maintenance Mode",
    notes: ctx.params.get("reason") ||
      "Maintenance mode is enabled for this node, but no reason was provided. This is a default message.",
    serviceId: "", serviceName: "", serviceTags: [],
  });
}

function serviceMaintenance(ctx: RouteContext): Response {
  const id = ctx.rest;
  if (id === "") throw badRequest("Missing service ID");
  const enable = enableParam(ctx.params);
  const instance = ctx.state.catalog.getService(ctx.state.nodeName, id);
  if (!instance) throw notFound(`Unknown service ID "${id}"`);
  ctx.authz.require("service", instance.service, "write");
  return toggle(ctx, serviceCheckId(id), enable, {
    name: "Service Maintenance Mode",
    notes: ctx.params.get("reason") ||
      "Maintenance mode is enabled for this service, but no reason was provided. This is a default message.",
    serviceId: id, serviceName: instance.service, serviceTags: instance.tags,
  });
}

export function maintenanceRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/agent/maintenance", { PUT: nodeMaintenance });
  route(app, server, "/v1/agent/service/maintenance/", { PUT: serviceMaintenance });
}
