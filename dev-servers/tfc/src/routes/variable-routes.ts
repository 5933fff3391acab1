/**
 * @module Workspace variables: list, create, read, update, delete. Keys are unique per category;
 * sensitive values are write-only and a sensitive variable cannot become plain again.
 */
import type { Hono } from "hono";
import { invalidAttribute, notFound } from "../http/api-error.ts";
import { many, noContent, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readResource } from "../http/request-body.ts";
import { findWorkspace, param, type ServerContext, viewContext } from "../http/server-context.ts";
import { newId, now } from "../state/ids.ts";
import type { VariableCategory, VariableRecord, WorkspaceRecord } from "../state/records.ts";
import { variableView } from "../views/configuration-views.ts";

const MAX_DESCRIPTION = 512;

export function variableRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const base = "/api/v2/workspaces/:id/vars";

  const find = (ws: WorkspaceRecord, id: string): VariableRecord => {
    const variable = state.variables.get(id);
    if (!variable || variable.workspaceId !== ws.id) throw notFound();
    return variable;
  };
  const checkKey = (ws: WorkspaceRecord, key: string, category: VariableCategory, current?: VariableRecord): void => {
    const taken = state.variablesOf(ws.id).some((v) => v.key === key && v.category === category && v !== current);
    if (taken) throw invalidAttribute("key", "Key has already been taken");
  };
  const checkDescription = (description: string | undefined): void => {
    if (description !== undefined && description.length > MAX_DESCRIPTION) {
      throw invalidAttribute("description", `Description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
    }
  };

  app.get(base, (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const ctx = viewContext(server, c);
    return many(paginate(state.variablesOf(ws.id).map((v) => variableView(v, ctx)), new URL(c.req.url)));
  });

  app.post(base, async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const { attributes: a } = await readResource(c.req.raw);
    const key = a.requiredString("key");
    const category = a.requiredString("category");
    if (category !== "terraform" && category !== "env") throw invalidAttribute("category", "Category must be terraform or env");
    const description = a.string("description");
    checkDescription(description);
    checkKey(ws, key, category);
    const variable: VariableRecord = {
      id: newId("var"), workspaceId: ws.id, key, value: a.string("value") ?? "", description: description ?? "",
      category, hcl: a.boolean("hcl") ?? false, sensitive: a.boolean("sensitive") ?? false, createdAt: now(),
      versionId: crypto.randomUUID().replaceAll("-", ""),
    };
    state.variables.set(variable.id, variable);
    return single(variableView(variable, viewContext(server, c)), [], 201);
  });

  app.get(`${base}/:var`, (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    return single(variableView(find(ws, param(c, "var")), viewContext(server, c)));
  });

  app.patch(`${base}/:var`, async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const variable = find(ws, param(c, "var"));
    const { attributes: a } = await readResource(c.req.raw);
    const key = a.string("key");
    const description = a.string("description");
    const sensitive = a.boolean("sensitive");
    const category = a.string("category");
    if (key !== undefined) {
      if (key === "") throw invalidAttribute("key", "key can't be blank");
      checkKey(ws, key, variable.category, variable);
    }
    checkDescription(description);
    if (category !== undefined && category !== variable.category) throw invalidAttribute("category", "Category cannot be changed");
    if (variable.sensitive && sensitive === false) throw invalidAttribute("sensitive", "A sensitive variable cannot be made non-sensitive");
    const value = a.string("value");
    const hcl = a.boolean("hcl");
    const changed = key !== undefined || value !== undefined || description !== undefined || hcl !== undefined || sensitive !== undefined;
    Object.assign(variable, {
      ...(key !== undefined ? { key } : {}),
      ...(value !== undefined ? { value } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(hcl !== undefined ? { hcl } : {}),
      ...(sensitive !== undefined ? { sensitive } : {}),
      ...(changed ? { versionId: crypto.randomUUID().replaceAll("-", "") } : {}),
    });
    return single(variableView(variable, viewContext(server, c)));
  });

  app.delete(`${base}/:var`, (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    state.variables.delete(find(ws, param(c, "var")).id);
    return noContent();
  });
}
