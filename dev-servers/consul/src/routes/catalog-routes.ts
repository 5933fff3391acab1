/** @module /v1/catalog: register, deregister, datacenters, nodes, services, service/:name, node/:name. */
import type { Hono } from "hono";
import { badRequest, serverError } from "../api-error.ts";
import { CATALOG_NODE_SCHEMA, SERVICE_NODE_SCHEMA } from "../bexpr/schemas.ts";
import { field, stringField, stringMapField } from "../exact-json.ts";
import { blockingQuery } from "../http/blocking-query.ts";
import { checkDatacenter, parseReadOptions } from "../http/query-options.ts";
import { json } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import { readJsonBody } from "../http/read-body.ts";
import { EMPTY_DEFINITION } from "../state/types.ts";
import { agentServiceJson, nodeJson, serviceNodeJson } from "./catalog-json.ts";
import { canSeeInstance, filterRows, nodeMetaMatcher, tagMatcher } from "./read-helpers.ts";
import { checkType, parseDefinition, parseService, parseStatus } from "./registration-body.ts";

type Row = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function register(ctx: RouteContext): Promise<Response> {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const body = await readJsonBody(ctx.request, "Request decode failed");
  const nodeName = stringField(body, "Node") ?? "";
  if (nodeName === "") throw badRequest("Must provide node");
  const id = stringField(body, "ID") ?? "";
  if (id !== "" && !UUID.test(id)) throw serverError(`Bad node ID: invalid UUID "${id}"`);
  const skipNodeUpdate = field(body, "SkipNodeUpdate") === true;
  const address = stringField(body, "Address") ?? "";
  if (!skipNodeUpdate && address === "") throw serverError("Must provide address if SkipNodeUpdate is not set");
  authz.require("node", nodeName, "write");
  const service = field(body, "Service");
  const serviceDef = service ? parseService(service, nodeName, "Service") : undefined;
  if (serviceDef) authz.require("service", serviceDef.service, "write");
  const checks = [field(body, "Check"), ...((field(body, "Checks") as unknown[] | null) ?? [])].filter(Boolean);
  // Refuse before writing anything: a registration is applied whole or not at all.
  for (const check of checks) {
    const serviceId = stringField(check, "ServiceID") ?? "";
    if (serviceId && serviceId !== serviceDef?.id && !state.catalog.getService(nodeName, serviceId)) {
      throw serverError(`Unknown service ID '${serviceId}' for check ID '${stringField(check, "CheckID") ?? ""}'`);
    }
    parseStatus(field(check, "Status"), "critical");
  }
  state.write((tx) => {
    const existing = state.catalog.getNode(nodeName);
    if (!skipNodeUpdate || !existing) {
      state.catalog.putNode(tx, {
        id: id || existing?.id || crypto.randomUUID(),
        node: nodeName, address: address || existing?.address || "",
        datacenter: state.datacenter,
        taggedAddresses: stringMapField(body, "TaggedAddresses"),
        meta: stringMapField(body, "NodeMeta"),
      });
      if (!state.catalog.getCheck(nodeName, "serfHealth") && !existing) {
        state.putCheck(tx, serfHealth(nodeName));
      }
    }
    if (serviceDef) {
      const node = state.catalog.getNode(nodeName)!;
      state.catalog.putService(tx, { ...serviceDef, node: node.node });
    }
    for (const check of checks) {
      const serviceId = stringField(check, "ServiceID") ?? "";
      const instance = serviceId ? state.catalog.getService(nodeName, serviceId) : undefined;
      const name = stringField(check, "Name") ?? "";
      const definition = field(check, "Definition");
      state.putCheck(tx, {
        node: state.catalog.getNode(nodeName)!.node,
        checkId: stringField(check, "CheckID") || name,
        name, status: parseStatus(field(check, "Status"), "critical"),
        notes: stringField(check, "Notes") ?? "", output: stringField(check, "Output") ?? "",
        serviceId, serviceName: instance?.service ?? "", serviceTags: instance?.tags ?? [],
        type: stringField(check, "Type") ?? checkType(definition),
        definition: definition ? parseDefinition(definition) : EMPTY_DEFINITION,
      });
    }
  });
  return json(true);
}

/** The passing node-level check every node carries (sessions default to it). */
export function serfHealth(node: string) {
  return {
    node, checkId: "serfHealth", name: "Serf Health Status", status: "passing" as const,
    notes: "", output: "Agent alive and reachable", serviceId: "", serviceName: "", serviceTags: [],
    type: "", definition: EMPTY_DEFINITION,
  };
}

async function deregister(ctx: RouteContext): Promise<Response> {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const body = await readJsonBody(ctx.request, "Request decode failed");
  const nodeName = stringField(body, "Node") ?? "";
  if (nodeName === "") throw badRequest("Must provide node");
  authz.require("node", nodeName, "write");
  const serviceId = stringField(body, "ServiceID") ?? "";
  const checkId = stringField(body, "CheckID") ?? "";
  state.write((tx) => {
    if (serviceId) state.deleteService(tx, nodeName, serviceId);
    if (checkId) state.deleteCheck(tx, nodeName, checkId);
    if (!serviceId && !checkId) state.deleteNode(tx, nodeName);
  });
  return json(true);
}

async function nodes(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const options = parseReadOptions(params, state.datacenter);
  const filter = filterRows<Row>(options.filter, CATALOG_NODE_SCHEMA);
  const meta = nodeMetaMatcher(params);
  const { index, value } = await blockingQuery(ctx, options, ["catalog:list"], () => ({
    index: state.catalog.listIndex,
    value: filter([...state.catalog.nodes.values()]
      .filter((n) => meta(n) && authz.allowed("node", n.node, "read"))
      .sort((a, b) => (a.node < b.node ? -1 : 1)).map(nodeJson)),
  }));
  return json(value, { index, consistency: options.consistency });
}

async function services(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const options = parseReadOptions(params, state.datacenter);
  const filter = filterRows<Row>(options.filter, SERVICE_NODE_SCHEMA);
  const meta = nodeMetaMatcher(params);
  const useMeta = params.has("node-meta");
  const { index, value } = await blockingQuery(ctx, options, ["catalog:list"], () => {
    const rows: Row[] = [];
    for (const instance of state.catalog.allInstances()) {
      const node = state.catalog.getNode(instance.node);
      if (!node || (useMeta && !meta(node)) || !canSeeInstance(authz, instance)) continue;
      rows.push(serviceNodeJson(node, instance));
    }
    const out: Record<string, string[]> = {};
    for (const row of filter(rows)) {
      const tags = new Set(out[row.ServiceName as string] ?? []);
      for (const tag of row.ServiceTags as string[]) tags.add(tag);
      out[row.ServiceName as string] = [...tags].sort();
    }
    return { index: state.catalog.listIndex, value: out };
  });
  return json(value, { index, consistency: options.consistency });
}

async function service(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const name = ctx.rest;
  if (name === "") throw badRequest("Missing service name");
  const options = parseReadOptions(params, state.datacenter);
  const filter = filterRows<Row>(options.filter, SERVICE_NODE_SCHEMA);
  const tags = tagMatcher(params);
  const meta = nodeMetaMatcher(params);
  const useMeta = params.has("node-meta");
  const { index, value } = await blockingQuery(ctx, options, [`svc:${name.toLowerCase()}`], () => {
    const rows: Row[] = [];
    for (const instance of state.catalog.instancesOf(name)) {
      const node = state.catalog.getNode(instance.node);
      if (!node || (useMeta && !meta(node)) || !tags(instance) || !canSeeInstance(authz, instance)) continue;
      rows.push(serviceNodeJson(node, instance));
    }
    return { index: state.catalog.serviceIndex(name), value: filter(rows) };
  });
  return json(value, { index, consistency: options.consistency });
}

async function node(ctx: RouteContext): Promise<Response> {
  const { params, state, authz } = ctx;
  const name = ctx.rest;
  if (name === "") throw badRequest("Missing node name");
  const options = parseReadOptions(params, state.datacenter);
  const { index, value } = await blockingQuery(ctx, options, [`node:${name.toLowerCase()}`], () => {
    const found = state.catalog.getNode(name);
    if (!found || !authz.allowed("node", found.node, "read")) return { index: state.catalog.nodeIndex(name), value: null };
    const servicesById: Record<string, unknown> = {};
    for (const instance of state.catalog.nodeServices(name)) {
      if (authz.allowed("service", instance.service, "read")) servicesById[instance.id] = agentServiceJson(instance);
    }
    return { index: state.catalog.nodeIndex(name), value: { Node: nodeJson(found), Services: servicesById } };
  });
  return json(value, { index, consistency: options.consistency });
}

export function catalogRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/catalog/register", { PUT: register });
  route(app, server, "/v1/catalog/deregister", { PUT: deregister });
  route(app, server, "/v1/catalog/datacenters", { GET: (ctx) => json([ctx.state.datacenter]) });
  route(app, server, "/v1/catalog/nodes", { GET: nodes });
  route(app, server, "/v1/catalog/services", { GET: services });
  route(app, server, "/v1/catalog/service/", { GET: service });
  route(app, server, "/v1/catalog/node/", { GET: node });
}
