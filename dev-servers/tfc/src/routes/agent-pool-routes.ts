/**
 * @module Agent pools: list and create per organization, read, rename, delete. Runs of agent-mode
 * workspaces execute on this server like remote ones; the pool is what the API checks and reports.
 */
import type { Hono } from "hono";
import { conflict, invalidAttribute, notFound } from "../http/api-error.ts";
import { many, noContent, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readResource } from "../http/request-body.ts";
import { findOrganization, param, type ServerContext, viewContext } from "../http/server-context.ts";
import { newId, now } from "../state/ids.ts";
import type { AgentPoolRecord } from "../state/records.ts";
import { agentPoolView } from "../views/organization-views.ts";

export function agentPoolRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const find = (id: string): AgentPoolRecord => {
    const pool = state.agentPools.get(id);
    if (!pool) throw notFound();
    return pool;
  };
  const uniqueName = (orgId: string, name: string, current?: AgentPoolRecord): string => {
    if (state.agentPoolsOf(orgId).some((pool) => pool.name === name && pool !== current)) {
      throw invalidAttribute("name", "Name has already been taken");
    }
    return name;
  };

  app.get("/api/v2/organizations/:org/agent-pools", (c) => {
    const org = findOrganization(server, param(c, "org"));
    const url = new URL(c.req.url);
    const query = url.searchParams.get("q") ?? url.searchParams.get("filter[name]");
    const ctx = viewContext(server, c);
    const pools = state.agentPoolsOf(org.id).filter((pool) => !query || pool.name.includes(query));
    return many(paginate(pools.map((pool) => agentPoolView(pool, ctx)), url));
  });

  app.post("/api/v2/organizations/:org/agent-pools", async (c) => {
    const org = findOrganization(server, param(c, "org"));
    const { attributes } = await readResource(c.req.raw);
    const pool: AgentPoolRecord = { id: newId("apool"), orgId: org.id, name: uniqueName(org.id, attributes.requiredString("name")), createdAt: now() };
    state.agentPools.set(pool.id, pool);
    return single(agentPoolView(pool, viewContext(server, c)), [], 201);
  });

  app.get("/api/v2/agent-pools/:id", (c) => single(agentPoolView(find(param(c, "id")), viewContext(server, c))));

  app.patch("/api/v2/agent-pools/:id", async (c) => {
    const pool = find(param(c, "id"));
    const { attributes } = await readResource(c.req.raw);
    const name = attributes.string("name");
    if (name !== undefined) pool.name = uniqueName(pool.orgId, name, pool);
    return single(agentPoolView(pool, viewContext(server, c)));
  });

  app.delete("/api/v2/agent-pools/:id", (c) => {
    const pool = find(param(c, "id"));
    const users = state.workspacesOf(pool.orgId).filter((ws) => ws.agentPoolId === pool.id);
    if (users.length > 0) throw conflict(`Agent pool is used by workspace ${users[0]!.name}`);
    state.agentPools.delete(pool.id);
    return noContent();
  });
}
