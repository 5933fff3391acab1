/**
 * @module A workspace's tags (`/workspaces/:id/relationships/tags`): list, add, remove. Key-value
 * tag bindings are not offered: `/tag-bindings` answers 404, which clients read as "unsupported".
 */
import type { Hono } from "hono";
import { many, noContent } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readResourceList } from "../http/request-body.ts";
import { findWorkspace, param, type ServerContext, viewContext } from "../http/server-context.ts";
import { now } from "../state/ids.ts";
import { tagView } from "../views/workspace-views.ts";
import { tagName, validTags } from "./workspace-settings.ts";

export function tagRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const path = "/api/v2/workspaces/:id/relationships/tags";

  app.get(path, (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const ctx = viewContext(server, c);
    return many(paginate(ws.tagNames.map((name) => tagView(ws.orgId, name, ctx)), new URL(c.req.url)));
  });

  app.post(path, async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const names = validTags((await readResourceList(c.req.raw)).map((tag) => tagName(state, ws.orgId, tag)));
    ws.tagNames = [...new Set([...ws.tagNames, ...names])];
    for (const name of names) state.tagId(ws.orgId, name);
    ws.updatedAt = now();
    return noContent();
  });

  app.delete(path, async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const names = (await readResourceList(c.req.raw)).map((tag) => tagName(state, ws.orgId, tag));
    ws.tagNames = ws.tagNames.filter((name) => !names.includes(name));
    ws.updatedAt = now();
    return noContent();
  });
}
