/**
 * @module State versions: create (the workspace must be locked; MD5, lineage and serial are
 * checked unless `force`), list by organization and workspace name, read, current, download
 * (no token), and their outputs.
 */
import type { Context, Hono } from "hono";
import { md5Hex } from "../../../../core/runtime/digest.ts";
import { conflict, invalidAttribute, notFound } from "../http/api-error.ts";
import { many, type Resource, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readResource, relationshipId } from "../http/request-body.ts";
import { findOrganization, findWorkspace, param, type ServerContext, viewContext } from "../http/server-context.ts";
import type { StateVersionRecord } from "../state/records.ts";
import { addStateVersion, parseState } from "../state/state-versions.ts";
import { stateVersionOutputView, stateVersionView } from "../views/state-views.ts";

function decodeBase64(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    throw invalidAttribute("state", "state must be base64");
  }
}

export function stateRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const find = (id: string): StateVersionRecord => {
    const sv = state.stateVersions.get(id);
    if (!sv) throw notFound();
    return sv;
  };
  const current = (workspaceId: string): StateVersionRecord => {
    const ws = findWorkspace(server, workspaceId);
    if (!ws.currentStateVersionId) throw notFound();
    return find(ws.currentStateVersionId);
  };
  const show = (c: Context, sv: StateVersionRecord, status = 200): Response => {
    const include = (c.req.query("include") ?? "").split(",");
    const included: Resource[] = include.includes("outputs") ? sv.outputs.map((output) => stateVersionOutputView(output, false)) : [];
    return single(stateVersionView(sv, viewContext(server, c)), included, status);
  };

  app.post("/api/v2/workspaces/:id/state-versions", async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const { attributes: a, relationships } = await readResource(c.req.raw);
    const serial = a.integer("serial");
    if (serial === undefined) throw invalidAttribute("serial", "serial can't be blank");
    const md5 = a.requiredString("md5");
    const bytes = decodeBase64(a.requiredString("state"));
    if (md5Hex(bytes) !== md5.toLowerCase()) throw invalidAttribute("md5", "md5 does not match the state's MD5 sum");
    let parsed;
    try {
      parsed = parseState(bytes);
    } catch (error) {
      throw invalidAttribute("state", `state is not a Terraform state file: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!ws.lock) throw conflict("The workspace must be locked to create a state version");
    const lineage = a.string("lineage") ?? parsed.lineage;
    const previous = ws.currentStateVersionId ? state.stateVersions.get(ws.currentStateVersionId) : undefined;
    if (previous && a.boolean("force") !== true) {
      if (previous.lineage && lineage && previous.lineage !== lineage) throw conflict(`Lineage ${lineage} does not match the current state's ${previous.lineage}`);
      if (serial < previous.serial) throw conflict(`Serial ${serial} is older than the current state's ${previous.serial}`);
    }
    const runId = relationshipId(relationships, "run");
    const sv = addStateVersion(state, ws, { bytes, parsed, serial, lineage, runId: runId && state.runs.has(runId) ? runId : null });
    return show(c, sv, 201);
  });

  app.get("/api/v2/state-versions", (c) => {
    const url = new URL(c.req.url);
    const orgName = url.searchParams.get("filter[organization][name]");
    const wsName = url.searchParams.get("filter[workspace][name]");
    if (!orgName || !wsName) throw invalidAttribute("filter", "filter[organization][name] and filter[workspace][name] are required", "query");
    const ws = state.workspaceByName(findOrganization(server, orgName).id, wsName);
    if (!ws) throw notFound();
    const ctx = viewContext(server, c);
    return many(paginate(state.stateVersionsOf(ws.id).map((sv) => stateVersionView(sv, ctx)), url));
  });

  app.get("/api/v2/state-versions/:id", (c) => show(c, find(param(c, "id"))));
  app.get("/api/v2/workspaces/:id/current-state-version", (c) => show(c, current(param(c, "id"))));

  app.get("/api/v2/state-versions/:id/outputs", (c) =>
    many(paginate(find(param(c, "id")).outputs.map((output) => stateVersionOutputView(output, false)), new URL(c.req.url))));
  app.get("/api/v2/workspaces/:id/current-state-version-outputs", (c) =>
    many(paginate(current(param(c, "id")).outputs.map((output) => stateVersionOutputView(output, false)), new URL(c.req.url))));

  app.get("/api/v2/state-version-outputs/:id", (c) => {
    const id = param(c, "id");
    for (const sv of state.stateVersions.values()) {
      const output = sv.outputs.find((candidate) => candidate.id === id);
      if (output) return single(stateVersionOutputView(output, true));
    }
    throw notFound();
  });

  app.get("/_archivist/v1/state/:secret", (c) => {
    const secret = param(c, "secret");
    const sv = [...state.stateVersions.values()].find((candidate) => candidate.downloadSecret === secret);
    if (!sv) throw notFound();
    return new Response(sv.state.slice(), { headers: { "Content-Type": "application/json" } });
  });
}
