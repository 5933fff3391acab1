/**
 * @module Finding or creating a task's workspace (reference §2): `<prefix><task>`, auto-apply,
 * remote execution, tagged `source:cts` plus the configured tags. An existing workspace is used only
 * when it runs remotely (or on an agent), is not connected to a VCS repository, holds no
 * configuration uploaded by another application and passes the tag allow/deny lists.
 */
import { CtsError, type Logger, type TaskConfig } from "../../../core/plugin-api/mod.ts";
import { workspaceBlockOf } from "./workspace-block.ts";
import type { TerraformCloudOptions } from "./options.ts";
import { type Resource, TfcApiError, type TfcClient } from "./tfc-client.ts";

export const CTS_TAG = "source:cts";
/** Configuration versions this driver (and go-tfe / CTS) upload through the API. */
const API_SOURCE = "tfe-api";

export interface WorkspaceInfo {
  readonly id: string;
  readonly name: string;
  readonly autoApply: boolean;
  /** `https://<host>/app/<org>/workspaces/<name>`. */
  readonly url: string;
}

export function workspaceUrl(options: TerraformCloudOptions, name: string): string {
  return `${options.hostname}/app/${encodeURIComponent(options.organization)}/workspaces/${encodeURIComponent(name)}`;
}

/** Why a workspace may not be used for the task, or undefined when it may. */
export async function refusal(client: TfcClient, ws: Resource, options: TerraformCloudOptions, task: string, signal?: AbortSignal): Promise<string | undefined> {
  const a = ws.attributes;
  const mode = String(a["execution-mode"] ?? "remote");
  if (mode !== "remote" && mode !== "agent") return `its execution mode is "${mode}"; CTS needs "remote" or "agent"`;
  if (a["vcs-repo"] !== null && a["vcs-repo"] !== undefined) return "it is connected to a VCS repository";
  const tags: string[] = Array.isArray(a["tag-names"]) ? a["tag-names"] : [];
  const denied = tags.find((tag) => options.tagsDenylist.includes(tag));
  if (denied !== undefined) return `it carries the tag "${denied}", which tags_denylist refuses`;
  if (options.tagsAllowlist.length > 0 && !tags.some((tag) => options.tagsAllowlist.includes(tag))) {
    return `it carries none of the tags of tags_allowlist (${options.tagsAllowlist.join(", ")})`;
  }
  const cv = ws.relationships?.["current-configuration-version"]?.data;
  if (cv && !Array.isArray(cv)) {
    const doc = await client.api(`read the configuration of workspace "${a.name}" for task "${task}"`, "GET", `/configuration-versions/${cv.id}`, undefined, { allow404: true, ...(signal ? { signal } : {}) });
    const source = (doc?.data as Resource | undefined)?.attributes.source;
    if (typeof source === "string" && source !== API_SOURCE) return `its configuration was uploaded by another application (source "${source}")`;
  }
  return undefined;
}

/** The workspace settings the task's `terraform_cloud_workspace` block asks for (reference §1). */
export async function wantedSettings(client: TfcClient, options: TerraformCloudOptions, task: TaskConfig, logger: Logger, signal: AbortSignal): Promise<Record<string, string | null>> {
  const block = workspaceBlockOf(task);
  const mode = block.execution_mode ?? "remote";
  const settings: Record<string, string | null> = { "execution-mode": mode };
  if (block.terraform_version) settings["terraform-version"] = block.terraform_version;
  if (mode !== "agent") return settings;
  if (block.agent_pool_id) {
    if (block.agent_pool_name) logger.warn("agent_pool_id and agent_pool_name are both set; using agent_pool_id", {});
    settings["agent-pool-id"] = block.agent_pool_id;
    return settings;
  }
  const org = encodeURIComponent(options.organization);
  const doc = await client.api(`list the agent pools of organization "${options.organization}"`, "GET",
    `/organizations/${org}/agent-pools?q=${encodeURIComponent(block.agent_pool_name ?? "")}&page%5Bsize%5D=100`, undefined, { signal });
  const pool = ((doc?.data ?? []) as Resource[]).find((candidate) => candidate.attributes.name === block.agent_pool_name);
  if (!pool) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot configure the workspace of task "${task.name}": organization "${options.organization}" has no agent pool named "${block.agent_pool_name}"`);
  }
  settings["agent-pool-id"] = pool.id;
  return settings;
}

export function workspaceName(options: TerraformCloudOptions, task: TaskConfig): string {
  return `${options.workspacePrefix}${task.name}`;
}

/** What the driver keeps of a workspace it read or created. */
export function workspaceInfo(options: TerraformCloudOptions, ws: Resource): WorkspaceInfo {
  const name = String(ws.attributes.name);
  return { id: ws.id, name, autoApply: ws.attributes["auto-apply"] !== false, url: workspaceUrl(options, name) };
}

/** The task's workspace as it is, read only; undefined when it does not exist. Refuses one the task may not use. */
export async function findWorkspace(client: TfcClient, options: TerraformCloudOptions, task: TaskConfig, signal: AbortSignal): Promise<Resource | undefined> {
  const name = workspaceName(options, task);
  const path = `/organizations/${encodeURIComponent(options.organization)}/workspaces/${encodeURIComponent(name)}`;
  const ws = (await client.api(`read workspace "${name}" for task "${task.name}"`, "GET", path, undefined, { allow404: true, signal }))?.data as Resource | undefined;
  if (ws === undefined) return undefined;
  const why = await refusal(client, ws, options, task.name, signal);
  if (why !== undefined) throw new CtsError("CTS_ERR_DRIVER", `Cannot use workspace "${name}" for task "${task.name}": ${why}`);
  return ws;
}

/** Creates the task's workspace with its settings and tags (CTS does so at a task's start). */
export async function createWorkspace(
  client: TfcClient, options: TerraformCloudOptions, task: TaskConfig, settings: Record<string, string | null>, logger: Logger, signal: AbortSignal,
): Promise<WorkspaceInfo> {
  const name = workspaceName(options, task);
  const wanted = [CTS_TAG, ...options.tags];
  const denied = wanted.find((tag) => options.tagsDenylist.includes(tag));
  if (denied !== undefined) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot create workspace "${name}" for task "${task.name}": its tag "${denied}" is in tags_denylist`);
  }
  if (options.tagsAllowlist.length > 0 && !wanted.some((tag) => options.tagsAllowlist.includes(tag))) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot create workspace "${name}" for task "${task.name}": none of its tags (${wanted.join(", ")}) is in tags_allowlist`);
  }
  const created = await client.api(`create workspace "${name}" for task "${task.name}"`, "POST", `/organizations/${encodeURIComponent(options.organization)}/workspaces`, {
    data: {
      type: "workspaces",
      attributes: { name, description: task.description, "auto-apply": true, "source-name": "cts-runtime", "tag-names": wanted, ...settings },
    },
  }, { signal });
  const ws = created!.data as Resource;
  logger.info("created workspace", { workspace_name: name, workspace_id: ws.id });
  await addMissingTags(client, ws, wanted, logger, signal);
  return workspaceInfo(options, ws);
}

/** Tags removed by hand come back; tags added by hand stay. */
async function addMissingTags(client: TfcClient, ws: Resource, wanted: readonly string[], logger: Logger, signal: AbortSignal): Promise<void> {
  const present: string[] = Array.isArray(ws.attributes["tag-names"]) ? ws.attributes["tag-names"] : [];
  const missing = wanted.filter((tag) => !present.includes(tag));
  if (missing.length === 0) return;
  await client.api(`tag workspace "${ws.attributes.name}"`, "POST", `/workspaces/${ws.id}/relationships/tags`, {
    data: missing.map((tag) => ({ type: "tags", attributes: { name: tag } })),
  }, { signal });
  logger.debug("tagged workspace", { workspace_name: ws.attributes.name, tags: missing.join(",") });
}

/**
 * Finds or creates the task's workspace and brings its settings and tags to what the task asks.
 * `found` is what findWorkspace just read (null: no such workspace), which spares reading it again.
 */
export async function ensureWorkspace(
  client: TfcClient, options: TerraformCloudOptions, task: TaskConfig, logger: Logger, signal: AbortSignal, found?: Resource | null,
): Promise<WorkspaceInfo> {
  const settings = await wantedSettings(client, options, task, logger, signal);
  if (found === null) {
    try {
      return await createWorkspace(client, options, task, settings, logger, signal);
    } catch (error) {
      // Created by someone else since it was read (422, name taken): use it as found below.
      if (!(error instanceof TfcApiError) || error.status !== 422) throw error;
    }
  }
  let ws = found ?? await findWorkspace(client, options, task, signal);
  if (ws === undefined) return await createWorkspace(client, options, task, settings, logger, signal);
  const name = workspaceName(options, task);
  const changed: Record<string, string | null> = {};
  if ((ws.attributes.description ?? "") !== task.description) changed.description = task.description;
  for (const [key, value] of Object.entries(settings)) if (ws.attributes[key] !== value) changed[key] = value;
  // Leaving agent mode clears the pool; TFC refuses a pool outside agent mode.
  if (settings["execution-mode"] !== "agent" && ws.attributes["agent-pool-id"]) changed["agent-pool-id"] = null;
  if (Object.keys(changed).length > 0) {
    const updated = await client.api(`update workspace "${name}" for task "${task.name}"`, "PATCH", `/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: changed },
    }, { signal });
    ws = (updated?.data as Resource | undefined) ?? ws;
    logger.info("updated workspace settings", { workspace_name: name, fields: Object.keys(changed).join(",") });
  }
  await addMissingTags(client, ws, [CTS_TAG, ...options.tags], logger, signal);
  return workspaceInfo(options, ws);
}
