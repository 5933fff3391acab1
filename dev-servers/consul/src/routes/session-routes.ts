/** @module /v1/session: create, destroy, renew, info, node, list. */
import type { Hono } from "hono";
import { badRequest, notFound, serverError } from "../api-error.ts";
import { field, hasField, stringField } from "../exact-json.ts";
import { formatGoDuration, parseGoDuration } from "../go-duration.ts";
import { blockingQuery } from "../http/blocking-query.ts";
import { checkDatacenter, parseReadOptions } from "../http/query-options.ts";
import { readJsonBody } from "../http/read-body.ts";
import { json } from "../http/respond.ts";
import { type RouteContext, route, type ServerContext } from "../http/route-context.ts";
import type { Session } from "../state/types.ts";

const DEFAULT_LOCK_DELAY_NS = 15e9;
const TTL_MIN_NS = 10e9;
const TTL_MAX_NS = 24 * 3600e9;

export function sessionJson(s: Session): Record<string, unknown> {
  const legacyChecks = s.nodeChecks.length === 1 && s.nodeChecks[0] === "serfHealth" ? {} : { Checks: [...s.nodeChecks] };
  return {
    ID: s.id, Name: s.name, Node: s.node, LockDelay: s.lockDelayNs, Behavior: s.behavior, TTL: s.ttl,
    ...legacyChecks, NodeChecks: [...s.nodeChecks], ServiceChecks: s.serviceChecks,
    CreateIndex: s.createIndex, ModifyIndex: s.modifyIndex,
  };
}

/** Consul's FixupLockDelay: strings are Go durations; numbers (and tiny durations) below 1000 mean seconds. */
function lockDelay(body: unknown): number {
  const value = field(body, "LockDelay");
  if (value === undefined || value === null) return DEFAULT_LOCK_DELAY_NS;
  let ns: number | undefined;
  if (typeof value === "number") ns = value;
  else if (typeof value === "string") ns = parseGoDuration(value);
  if (ns === undefined || (typeof value === "string" && /^\d+$/.test(value))) {
    throw badRequest(`Request decode failed: time: missing unit in duration "${String(value)}"`);
  }
  return ns > 0 && ns < 1000 ? ns * 1e9 : ns;
}

function ttl(body: unknown, minNs: number): string {
  const text = stringField(body, "TTL") ?? "";
  if (["", "0", "0s", "0m", "0h"].includes(text)) return text === "" ? "" : text;
  const ns = parseGoDuration(text);
  if (ns === undefined) throw serverError(`Session TTL '${text}' invalid: time: invalid duration "${text}"`);
  if (ns !== 0 && (ns < minNs || ns > TTL_MAX_NS)) {
    throw serverError(`Invalid Session TTL '${ns}', must be between [${formatGoDuration(minNs)}=${formatGoDuration(TTL_MAX_NS)}]`);
  }
  return text;
}

async function create(ctx: RouteContext): Promise<Response> {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const body = await readJsonBody(ctx.request, "Request decode failed");
  const behavior = stringField(body, "Behavior") || "release";
  if (behavior !== "release" && behavior !== "delete") throw serverError(`Invalid Behavior setting '${behavior}'`);
  const node = stringField(body, "Node") || state.nodeName;
  authz.require("session", node, "write");
  const explicitChecks = hasField(body, "Checks") || hasField(body, "NodeChecks");
  const nodeChecks = [
    ...((field(body, "Checks") as string[] | null) ?? []),
    ...((field(body, "NodeChecks") as string[] | null) ?? []),
  ];
  const serviceChecksRaw = field(body, "ServiceChecks") as unknown[] | null | undefined;
  const serviceChecks = serviceChecksRaw?.map((c) => ({ ID: stringField(c, "ID") ?? "", Namespace: stringField(c, "Namespace") ?? "" })) ?? null;
  const sessionTtl = ttl(body, ctx.server.sessionTtlMinNs ?? TTL_MIN_NS);
  const created = state.write((tx) => state.createSession(tx, {
    id: crypto.randomUUID(),
    name: stringField(body, "Name") ?? "",
    node: state.catalog.getNode(node)?.node ?? node,
    lockDelayNs: lockDelay(body),
    behavior,
    ttl: sessionTtl,
    nodeChecks: explicitChecks ? nodeChecks : ["serfHealth"],
    serviceChecks,
  }));
  return json({ ID: created.id });
}

function destroy(ctx: RouteContext): Response {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const id = ctx.rest;
  if (id === "") throw badRequest("Missing session");
  const session = state.sessions.get(id);
  if (session) authz.require("session", session.node, "write");
  state.write((tx) => state.destroySession(tx, id));
  return json(true);
}

function renew(ctx: RouteContext): Response {
  const { state, authz } = ctx;
  checkDatacenter(ctx.params, state.datacenter);
  const id = ctx.rest;
  if (id === "") throw badRequest("Missing session");
  const existing = state.sessions.get(id);
  if (existing) authz.require("session", existing.node, "write");
  const session = state.renewSession(id);
  if (!session) throw notFound(`Session id '${id}' not found`);
  return json([sessionJson(session)]);
}

function reader(select: (ctx: RouteContext) => Session[]) {
  return async (ctx: RouteContext): Promise<Response> => {
    const { state, authz } = ctx;
    const options = parseReadOptions(ctx.params, state.datacenter);
    const { index, value } = await blockingQuery(ctx, options, ["sessions"], () => ({
      index: state.sessions.tableIndex,
      value: select(ctx).filter((s) => authz.allowed("session", s.node, "read")).map(sessionJson),
    }));
    return json(value, { index, consistency: options.consistency });
  };
}

export function sessionRoutes(app: Hono, server: ServerContext): void {
  route(app, server, "/v1/session/create", { PUT: create });
  route(app, server, "/v1/session/destroy/", { PUT: destroy });
  route(app, server, "/v1/session/renew/", { PUT: renew });
  route(app, server, "/v1/session/info/", {
    GET: reader((ctx) => {
      if (ctx.rest === "") throw badRequest("Missing session");
      const s = ctx.state.sessions.get(ctx.rest);
      return s ? [s] : [];
    }),
  });
  route(app, server, "/v1/session/node/", {
    GET: reader((ctx) => {
      if (ctx.rest === "") throw badRequest("Missing node name");
      return ctx.state.sessions.ofNode(ctx.rest);
    }),
  });
  route(app, server, "/v1/session/list", { GET: reader((ctx) => ctx.state.sessions.list()) });
}
