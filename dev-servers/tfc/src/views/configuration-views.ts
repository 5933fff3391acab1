/** @module JSON:API views of workspace variables and configuration versions. */
import type { Resource } from "../http/json-api.ts";
import type { ConfigurationVersionRecord, VariableRecord } from "../state/records.ts";
import type { ViewContext } from "./view-context.ts";
import { workspacePath } from "./workspace-views.ts";

/** A sensitive variable's value is write-only: it reads back as null. */
export function variableView(variable: VariableRecord, ctx: ViewContext): Resource {
  const ws = ctx.state.workspaces.get(variable.workspaceId)!;
  const org = ctx.state.organizationOf(ws);
  return {
    id: variable.id,
    type: "vars",
    attributes: {
      "key": variable.key,
      "value": variable.sensitive ? null : variable.value,
      "sensitive": variable.sensitive,
      "category": variable.category,
      "hcl": variable.hcl,
      "created-at": variable.createdAt,
      "description": variable.description,
      "version-id": variable.versionId,
    },
    relationships: {
      configurable: { data: { id: ws.id, type: "workspaces" }, links: { related: workspacePath(org.name, ws.name) } },
    },
    links: { self: `/api/v2/workspaces/${ws.id}/vars/${variable.id}` },
  };
}

export function uploadUrl(cv: ConfigurationVersionRecord, ctx: ViewContext): string {
  return `${ctx.origin}/_archivist/v1/object/${cv.uploadSecret}`;
}

export function configurationVersionView(cv: ConfigurationVersionRecord, ctx: ViewContext): Resource {
  return {
    id: cv.id,
    type: "configuration-versions",
    attributes: {
      "auto-queue-runs": cv.autoQueueRuns,
      "error": cv.status === "errored" ? "upload_failed" : null,
      "error-message": cv.errorMessage,
      "source": cv.source,
      "speculative": cv.speculative,
      "provisional": cv.provisional,
      "status": cv.status,
      "status-timestamps": cv.statusTimestamps,
      "changed-files": [],
      "upload-url": cv.status === "pending" ? uploadUrl(cv, ctx) : null,
    },
    relationships: { "ingress-attributes": { data: null } },
    links: {
      self: `/api/v2/configuration-versions/${cv.id}`,
      download: `/api/v2/configuration-versions/${cv.id}/download`,
    },
  };
}
