/**
 * @module Configuration versions: create (which hands out an upload URL), list, read, download,
 * and the upload itself (`PUT <upload-url>`, no token, as HCP Terraform's archivist): a tar.gz
 * that reads moves the version to `uploaded` (queueing a run when `auto-queue-runs`), anything
 * else to `errored` with the reason.
 */
import type { Context, Hono } from "hono";
import { errorMessage } from "../../../../core/plugin-api/mod.ts";
import { listTarGz } from "../../../../core/runtime/tar-archive.ts";
import { notFound } from "../http/api-error.ts";
import { many, single } from "../http/json-api.ts";
import { paginate } from "../http/paging.ts";
import { readResource } from "../http/request-body.ts";
import { findWorkspace, param, type ServerContext, viewContext } from "../http/server-context.ts";
import { newId, newSecret, now } from "../state/ids.ts";
import type { ConfigurationVersionRecord } from "../state/records.ts";
import { configurationVersionView } from "../views/configuration-views.ts";

/** Requests from the Terraform CLI's `cloud` block say so; HCP Terraform records that as the source. */
export function requestSource(c: Context): string {
  return c.req.header("X-Terraform-Integration") === "cloud" ? "terraform+cloud" : "tfe-api";
}

export function configurationRoutes(app: Hono, server: ServerContext): void {
  const { state } = server;
  const find = (id: string): ConfigurationVersionRecord => {
    const cv = state.configurationVersions.get(id);
    if (!cv) throw notFound();
    return cv;
  };

  app.post("/api/v2/workspaces/:id/configuration-versions", async (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const { attributes } = await readResource(c.req.raw);
    const cv: ConfigurationVersionRecord = {
      id: newId("cv"), workspaceId: ws.id, autoQueueRuns: attributes.boolean("auto-queue-runs") ?? true,
      speculative: attributes.boolean("speculative") ?? false, provisional: attributes.boolean("provisional") ?? false,
      source: requestSource(c), status: "pending", errorMessage: null, statusTimestamps: {}, uploadSecret: newSecret(),
      archive: null, createdAt: now(),
    };
    state.configurationVersions.set(cv.id, cv);
    return single(configurationVersionView(cv, viewContext(server, c)), [], 201);
  });

  app.get("/api/v2/workspaces/:id/configuration-versions", (c) => {
    const ws = findWorkspace(server, param(c, "id"));
    const ctx = viewContext(server, c);
    return many(paginate(state.configurationVersionsOf(ws.id).map((cv) => configurationVersionView(cv, ctx)), new URL(c.req.url)));
  });

  app.get("/api/v2/configuration-versions/:id", (c) => single(configurationVersionView(find(param(c, "id")), viewContext(server, c))));

  app.get("/api/v2/configuration-versions/:id/download", (c) => {
    const archive = find(param(c, "id")).archive;
    if (!archive) throw notFound();
    return new Response(archive.slice(), { headers: { "Content-Type": "application/x-gzip" } });
  });

  app.put("/_archivist/v1/object/:secret", async (c) => {
    const secret = param(c, "secret");
    const cv = [...state.configurationVersions.values()].find((candidate) => candidate.uploadSecret === secret);
    if (!cv || cv.status !== "pending") throw notFound();
    const archive = new Uint8Array(await c.req.arrayBuffer());
    const failure = server.faults.uploadFails() ? "Injected fault: the upload failed" : await unreadable(archive);
    if (failure) {
      cv.status = "errored";
      cv.errorMessage = failure;
      cv.statusTimestamps["errored-at"] = now();
      return new Response(null, { status: 200 });
    }
    cv.archive = archive;
    cv.status = "uploaded";
    cv.statusTimestamps["uploaded-at"] = now();
    const ws = state.workspaces.get(cv.workspaceId);
    if (ws && !cv.speculative) ws.currentConfigurationVersionId = cv.id;
    if (ws && cv.autoQueueRuns && ws.executionMode !== "local") {
      server.engine.create({
        workspace: ws, configurationVersionId: cv.id, message: "Triggered via API", source: "tfe-configuration-version",
        isDestroy: false, refresh: true, refreshOnly: false, autoApply: ws.autoApply, planOnly: cv.speculative,
        allowEmptyApply: false, targetAddrs: null, replaceAddrs: null, variables: [],
      });
    }
    return new Response(null, { status: 200 });
  });
}

/** Why `archive` is not a usable configuration, or undefined when it is. */
async function unreadable(archive: Uint8Array): Promise<string | undefined> {
  try {
    await listTarGz(archive);
    return undefined;
  } catch (error) {
    return `The configuration is not a readable tar.gz archive: ${errorMessage(error)}`;
  }
}
