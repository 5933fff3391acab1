/** @module Organizations: list, create, read, update (incl. rename), delete; entitlement set, capacity, run queue, tags. */
import type { Hono } from "hono";
import { invalidAttribute } from "../http/api-error.ts";
import { many, noContent, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { type Attributes, readResource } from "../http/request-body.ts";
import { findOrganization, param, type ServerContext, viewContext } from "../http/server-context.ts";
import { newId, now } from "../state/ids.ts";
import type { OrganizationRecord } from "../state/records.ts";
import { capacityView, entitlementSetView, organizationView } from "../views/organization-views.ts";
import { runView } from "../views/run-views.ts";
import { tagView } from "../views/workspace-views.ts";

/** What HCP Terraform allows in an organization name. */
export const ORGANIZATION_NAME = /^[A-Za-z0-9_-]+$/;

function validName(state: ServerContext["state"], name: string, current?: OrganizationRecord): string {
  if (!ORGANIZATION_NAME.test(name)) throw invalidAttribute("name", "Name may only contain letters, numbers, '-' and '_'");
  const existing = state.organizationByName(name);
  if (existing && existing !== current) throw invalidAttribute("name", "Name has already been taken");
  return name;
}

function validEmail(email: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw invalidAttribute("email", "Email is invalid");
  return email;
}

/** Fields both create and update accept. */
function applySettings(org: OrganizationRecord, attrs: Attributes): void {
  const sessionTimeout = attrs.integer("session-timeout");
  if (sessionTimeout !== undefined) org.sessionTimeout = sessionTimeout;
  const sessionRemember = attrs.integer("session-remember");
  if (sessionRemember !== undefined) org.sessionRemember = sessionRemember;
  const policy = attrs.string("collaborator-auth-policy");
  if (policy !== undefined) {
    if (policy !== "password" && policy !== "two_factor_mandatory") throw invalidAttribute("collaborator-auth-policy", "must be password or two_factor_mandatory");
    org.collaboratorAuthPolicy = policy;
  }
  const costEstimation = attrs.boolean("cost-estimation-enabled");
  if (costEstimation !== undefined) org.costEstimationEnabled = costEstimation;
  if (attrs.has("owners-team-saml-role-id")) org.ownersTeamSamlRoleId = attrs.string("owners-team-saml-role-id") ?? null;
}

/** A new organization as HCP Terraform creates one: cost estimation on, default session settings. */
export function newOrganization(name: string, email: string): OrganizationRecord {
  return {
    id: newId("org"), name, email, createdAt: now(), sessionTimeout: null, sessionRemember: null,
    collaboratorAuthPolicy: "password", costEstimationEnabled: true, ownersTeamSamlRoleId: null,
  };
}

export function organizationRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;

  app.get("/api/v2/organizations", (c) =>
    many(paginate([...state.organizations.values()].map(organizationView), new URL(c.req.url))));

  app.post("/api/v2/organizations", async (c) => {
    const { attributes } = await readResource(c.req.raw);
    const org = newOrganization(validName(state, attributes.requiredString("name")), validEmail(attributes.requiredString("email")));
    applySettings(org, attributes);
    state.organizations.set(org.id, org);
    return single(organizationView(org), [], 201);
  });

  app.get("/api/v2/organizations/:org", (c) => single(organizationView(findOrganization(server, param(c, "org")))));

  app.patch("/api/v2/organizations/:org", async (c) => {
    const org = findOrganization(server, param(c, "org"));
    const { attributes } = await readResource(c.req.raw);
    const name = attributes.string("name");
    const email = attributes.string("email");
    if (name !== undefined) validName(state, name, org);
    if (email !== undefined) validEmail(email);
    applySettings(org, attributes);
    if (name !== undefined) org.name = name;
    if (email !== undefined) org.email = email;
    return single(organizationView(org));
  });

  app.delete("/api/v2/organizations/:org", async (c) => {
    const org = findOrganization(server, param(c, "org"));
    await Promise.all(state.workspacesOf(org.id).map((ws) => server.engine.stopWorkspace(ws.id)));
    state.deleteOrganization(org.id);
    return noContent();
  });

  app.get("/api/v2/organizations/:org/entitlement-set", (c) => single(entitlementSetView(findOrganization(server, param(c, "org")))));

  app.get("/api/v2/organizations/:org/capacity", (c) => {
    const org = findOrganization(server, param(c, "org"));
    const runs = state.workspacesOf(org.id).flatMap((ws) => state.runsOf(ws.id));
    const waiting = runs.filter((run) => server.engine.positionInQueue(run.id) > 0).length;
    const running = runs.filter((run) => run.status === "planning" || run.status === "applying").length;
    return single(capacityView(org, waiting, running));
  });

  app.get("/api/v2/organizations/:org/runs/queue", (c) => {
    const org = findOrganization(server, param(c, "org"));
    const queued = state.workspacesOf(org.id).flatMap((ws) => state.runsOf(ws.id))
      .filter((run) => ["pending", "plan_queued", "apply_queued"].includes(run.status));
    const ctx = viewContext(server, c);
    return many(paginate(queued.map((run) => runView(run, ctx)), new URL(c.req.url)));
  });

  app.get("/api/v2/organizations/:org/tags", (c) => {
    const org = findOrganization(server, param(c, "org"));
    const names = [...new Set(state.workspacesOf(org.id).flatMap((ws) => ws.tagNames))].sort();
    const ctx = viewContext(server, c);
    return many(paginate(names.map((name) => tagView(org.id, name, ctx)), new URL(c.req.url)));
  });
}

