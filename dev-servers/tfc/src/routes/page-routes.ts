/**
 * @module The pages at the URLs clients print: HCP Terraform's `/app/<org>/workspaces/<name>` and
 * `/app/<org>/workspaces/<name>/runs/<run id>`, read only. Like the log and upload URLs they need no
 * token (this is a development server on a local address); an unknown one answers a 404 page.
 */
import type { Context, Hono } from "hono";
import { param, type ServerContext } from "../http/server-context.ts";
import { runPage, workspacePage, type PageContext } from "../views/html-pages.ts";

function notFoundPage(c: Context, what: string): Response {
  return c.text(`Not found: ${what}`, 404);
}

export function pageRoutes(app: Hono, server: ServerContext): void {
  // "latest" stands for "no binary found": then every version is as (un)servable as any other.
  const binary = server.defaultTerraformVersion === "latest" ? undefined : server.defaultTerraformVersion;
  const ctx: PageContext = { state: server.state, terraformVersion: binary };
  const find = (c: Context) => {
    const org = server.state.organizationByName(param(c, "org"));
    const ws = org ? server.state.workspaceByName(org.id, param(c, "name")) : undefined;
    return org && ws ? { org, ws } : undefined;
  };
  app.get("/app/:org/workspaces/:name", (c) => {
    const found = find(c);
    return found ? workspacePage(ctx, found.org, found.ws) : notFoundPage(c, `workspace ${param(c, "org")}/${param(c, "name")}`);
  });
  app.get("/app/:org/workspaces/:name/runs/:run", (c) => {
    const found = find(c);
    const run = server.state.runs.get(param(c, "run"));
    if (!found || !run || run.workspaceId !== found.ws.id) return notFoundPage(c, `run ${param(c, "run")}`);
    return runPage(ctx, found.org, found.ws, run);
  });
}
