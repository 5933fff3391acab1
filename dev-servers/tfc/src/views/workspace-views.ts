/** @module JSON:API views of workspaces and their tags. */
import type { Resource } from "../http/json-api.ts";
import { toOne } from "../http/json-api.ts";
import type { WorkspaceRecord } from "../state/records.ts";
import type { ViewContext } from "./view-context.ts";

const WORKSPACE_PERMISSIONS = {
  "can-update": true,
  "can-destroy": true,
  "can-queue-run": true,
  "can-queue-apply": true,
  "can-queue-destroy": true,
  "can-lock": true,
  "can-unlock": true,
  "can-force-unlock": true,
  "can-read-settings": true,
  "can-read-variable": true,
  "can-update-variable": true,
  "can-read-state-versions": true,
  "can-read-state-outputs": true,
  "can-create-state-versions": true,
  "can-read-run": true,
  "can-manage-tags": true,
  "can-manage-run-tasks": true,
  "can-force-delete": true,
};

export function workspacePath(orgName: string, wsName: string): string {
  return `/api/v2/organizations/${encodeURIComponent(orgName)}/workspaces/${encodeURIComponent(wsName)}`;
}

export function workspaceView(ws: WorkspaceRecord, ctx: ViewContext): Resource {
  const org = ctx.state.organizationOf(ws);
  const currentState = ws.currentStateVersionId ? ctx.state.stateVersions.get(ws.currentStateVersionId) : undefined;
  const lockedBy = ws.lock === null ? null : ws.lock.by === "run" ? { id: ws.lock.runId!, type: "runs" } : { id: "user-tfc-dev", type: "users" };
  return {
    id: ws.id,
    type: "workspaces",
    attributes: {
      "name": ws.name,
      "description": ws.description,
      "created-at": ws.createdAt,
      "updated-at": ws.updatedAt,
      "latest-change-at": ws.updatedAt,
      "environment": "default",
      "auto-apply": ws.autoApply,
      "auto-apply-run-trigger": false,
      "auto-destroy-at": null,
      "allow-destroy-plan": ws.allowDestroyPlan,
      "can-queue-destroy-plan": ws.allowDestroyPlan,
      "execution-mode": ws.executionMode,
      "operations": ws.executionMode !== "local",
      "agent-pool-id": ws.agentPoolId,
      "file-triggers-enabled": ws.fileTriggersEnabled,
      "global-remote-state": ws.globalRemoteState,
      "locked": ws.lock !== null,
      "locked-reason": ws.lock?.reason ?? "",
      "migration-environment": "",
      "queue-all-runs": ws.queueAllRuns,
      "speculative-enabled": ws.speculativeEnabled,
      "structured-run-output-enabled": false,
      "terraform-version": ws.terraformVersion,
      "trigger-prefixes": ws.triggerPrefixes,
      "trigger-patterns": ws.triggerPatterns,
      "working-directory": ws.workingDirectory,
      "vcs-repo": null,
      "vcs-repo-identifier": null,
      "source": "tfe-api",
      "source-name": ws.sourceName,
      "source-url": ws.sourceUrl,
      "resource-count": currentState?.resourceCount ?? 0,
      "tag-names": ws.tagNames,
      "assessments-enabled": false,
      "setting-overwrites": { "execution-mode": true, "agent-pool": true },
      "actions": { "is-destroyable": true },
      "permissions": WORKSPACE_PERMISSIONS,
    },
    relationships: {
      "organization": { data: { id: org.name, type: "organizations" } },
      "current-run": toOne("runs", ws.currentRunId),
      "latest-run": toOne("runs", ws.latestRunId),
      "current-state-version": toOne("state-versions", ws.currentStateVersionId),
      "current-configuration-version": toOne("configuration-versions", ws.currentConfigurationVersionId),
      "agent-pool": toOne("agent-pools", ws.agentPoolId),
      "locked-by": { data: lockedBy },
      "outputs": { data: (currentState?.outputs ?? []).map((output) => ({ id: output.id, type: "workspace-outputs" })) },
    },
    links: {
      "self": workspacePath(org.name, ws.name),
      "self-html": `/app/${encodeURIComponent(org.name)}/workspaces/${encodeURIComponent(ws.name)}`,
    },
  };
}

export function tagView(orgId: string, name: string, ctx: ViewContext): Resource {
  const count = ctx.state.workspacesOf(orgId).filter((ws) => ws.tagNames.includes(name)).length;
  return { id: ctx.state.tagId(orgId, name), type: "tags", attributes: { "name": name, "instance-count": count } };
}
