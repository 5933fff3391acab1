/**
 * @module Workspaces: list (search by name, wildcard and tags, paged), create, read, update and
 * delete by organization and name or by id, lock / unlock / force-unlock, safe-delete.
 */
import type { Context, Hono } from "hono";
import { conflict } from "../http/api-error.ts";
import { type Resource, many, noContent, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { wildcardMatcher } from "../http/wildcard-name.ts";
import { readResource } from "../http/request-body.ts";
import {
  findOrganization, findWorkspace, findWorkspaceByName, param, type ServerContext, viewContext,
} from "../http/server-context.ts";
import { newId, now } from "../state/ids.ts";
import type { WorkspaceRecord } from "../state/records.ts";
import { organizationView } from "../views/organization-views.ts";
import { runView } from "../views/run-views.ts";
import { workspaceView } from "../views/workspace-views.ts";
import { requestedTags, workspaceChanges } from "./workspace-settings.ts";

function listFilter(url: URL): (ws: WorkspaceRecord) => boolean {
  const search = url.searchParams.get("search[name]")?.toLowerCase();
  const pattern = url.searchParams.get("search[wildcard-name]");
  const matcher = pattern ? wildcardMatcher(pattern) : undefined;
  const split = (name: string) => (url.searchParams.get(name) ?? "").split(",").map((tag) => tag.trim()).filter(Boolean);
  const tags = split("search[tags]");
  const excluded = split("search[exclude-tags]");
  return (ws) =>
    (!search || ws.name.toLowerCase().includes(search)) &&
    (!matcher || matcher(ws.name)) &&
    tags.every((tag) => ws.tagNames.includes(tag)) &&
    !excluded.some((tag) => ws.tagNames.includes(tag));
}

/** Resources named by `?include=` (organization, current_run, latest_run). */
function included(server: ServerContext, c: Context, workspaces: readonly WorkspaceRecord[]): Resource[] {
  const include = (c.req.query("include") ?? "").split(",");
  const ctx = viewContext(server, c);
  const out: Resource[] = [];
  for (const ws of workspaces) {
    if (include.includes("organization")) out.push(organizationView(server.state.organizationOf(ws)));
    for (const [name, id] of [["current_run", ws.currentRunId], ["latest_run", ws.latestRunId]] as const) {
      const run = id ? server.state.runs.get(id) : undefined;
      if (include.includes(name) && run) out.push(runView(run, ctx));
    }
  }
  return out;
}

export function workspaceRoutes(app: Hono, server: ServerContext): void {
  const { state, engine } = server;
  const show = (c: Context, ws: WorkspaceRecord, status = 200) => single(workspaceView(ws, viewContext(server, c)), included(server, c, [ws]), status);

  const update = async (c: Context, ws: WorkspaceRecord) => {
    const resource = await readResource(c.req.raw);
    const changes = workspaceChanges(state, ws, resource);
    const tags = requestedTags(state, ws.orgId, resource);
    Object.assign(ws, changes, tags ? { tagNames: tags } : {}, { updatedAt: now() });
    return show(c, ws);
  };

  const remove = async (ws: WorkspaceRecord, safe: boolean) => {
    const current = ws.currentStateVersionId ? state.stateVersions.get(ws.currentStateVersionId) : undefined;
    if (safe && (current?.resourceCount ?? 0) > 0) throw conflict("Workspace still manages resources; destroy them or delete it without safe-delete", "conflict");
    await engine.stopWorkspace(ws.id);
    state.deleteWorkspace(ws.id);
    return noContent();
  };

  app.get("/api/v2/organizations/:org/workspaces", (c) => {
    const org = findOrganization(server, param(c, "org"));
    const url = new URL(c.req.url);
    const matches = state.workspacesOf(org.id).filter(listFilter(url)).sort((a, b) => a.name.localeCompare(b.name));
    const page = paginate(matches, url);
    const ctx = viewContext(server, c);
    return many({ ...page, items: page.items.map((ws) => workspaceView(ws, ctx)) }, included(server, c, page.items));
  });

  app.post("/api/v2/organizations/:org/workspaces", async (c) => {
    const org = findOrganization(server, param(c, "org"));
    const resource = await readResource(c.req.raw);
    resource.attributes.requiredString("name");
    const created = now();
    const ws: WorkspaceRecord = {
      id: newId("ws"), orgId: org.id, name: "", description: null, createdAt: created, updatedAt: created,
      autoApply: false, allowDestroyPlan: true, executionMode: "remote", agentPoolId: null, fileTriggersEnabled: true,
      queueAllRuns: false, speculativeEnabled: true, terraformVersion: server.defaultTerraformVersion,
      triggerPrefixes: [], triggerPatterns: [], workingDirectory: "", globalRemoteState: false, sourceName: null,
      sourceUrl: null, tagNames: [], lock: null, currentRunId: null, latestRunId: null, currentStateVersionId: null,
      currentConfigurationVersionId: null,
    };
    Object.assign(ws, workspaceChanges(state, ws, resource), { tagNames: requestedTags(state, org.id, resource) ?? [] });
    state.workspaces.set(ws.id, ws);
    return show(c, ws, 201);
  });

  app.get("/api/v2/organizations/:org/workspaces/:name", (c) => show(c, findWorkspaceByName(server, param(c, "org"), param(c, "name"))));
  app.patch("/api/v2/organizations/:org/workspaces/:name", (c) => update(c, findWorkspaceByName(server, param(c, "org"), param(c, "name"))));
  app.delete("/api/v2/organizations/:org/workspaces/:name", (c) => remove(findWorkspaceByName(server, param(c, "org"), param(c, "name")), false));
  app.post("/api/v2/organizations/:org/workspaces/:name/actions/safe-delete", (c) =>
    remove(findWorkspaceByName(server, param(c, "org"), param(c, "name")), true));

  app.get("/api/v2/workspaces/:id", (c) => show(c, findWorkspace(server, param(c, "id"))));
  app.patch("/api/v2/workspaces/:id", (c) => update(c, findWorkspace(server, param(c, "id"))));
  app.delete("/api/v2/workspaces/:id", (c) => remove(findWorkspace(server, param(c, "id")), false));
  app.post("/api/v2/workspaces/:id/actions/safe-delete", (c) => remove(findWorkspace(server, param(c, "id")), true));

  app.post("/api/v2/workspaces/:id/actions/lock", async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const body = await c.req.json().catch(() => ({})) as { reason?: unknown };
    if (ws.lock) throw conflict(ws.lock.by === "run" ? "Workspace is locked by a run" : "Workspace is already locked");
    ws.lock = { by: "user", reason: typeof body.reason === "string" ? body.reason : "" };
    return show(c, ws);
  });

  for (const action of ["unlock", "force-unlock"]) {
    app.post(`/api/v2/workspaces/:id/actions/${action}`, (c) => {
      const ws = findWorkspace(server, param(c, "id"));
      if (!ws.lock) throw conflict("Workspace is already unlocked");
      if (ws.lock.by === "run") throw conflict("Workspace is locked by a run; cancel or discard the run instead");
      ws.lock = null;
      engine.pump(ws);
      return show(c, ws);
    });
  }
}
