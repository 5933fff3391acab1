/**
 * @module Workspace settings from a create or update body, validated as HCP Terraform does:
 * names, Terraform version strings, execution mode and agent pool, tags. Nothing is changed
 * unless the whole body is valid.
 */
import { invalidAttribute } from "../http/api-error.ts";
import { type RequestResource, relationshipId, relationshipList } from "../http/request-body.ts";
import type { ExecutionMode, WorkspaceRecord } from "../state/records.ts";
import type { TfcState } from "../state/tfc-state.ts";

const NAME = /^[A-Za-z0-9_-]{1,90}$/;
const TAG = /^[A-Za-z0-9:_-]{1,255}$/;
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const CONSTRAINT = /^(?:(?:~>|>=|<=|>|<|=|!=)\s*)?\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?$/;

/** `latest`, an exact version, or a version constraint such as `~> 1.9`. */
export function validTerraformVersion(value: string): boolean {
  return value === "latest" || VERSION.test(value) || value.split(",").every((part) => CONSTRAINT.test(part.trim()));
}

/** Tag names from `relationships.tags` (by name or by id) and the older `tag-names` attribute. */
export function requestedTags(state: TfcState, orgId: string, resource: RequestResource): string[] | undefined {
  const byAttribute = resource.attributes.stringArray("tag-names");
  const related = relationshipList(resource.relationships, "tags");
  if (byAttribute === undefined && related.length === 0 && resource.relationships.tags === undefined) return undefined;
  return validTags([...(byAttribute ?? []), ...related.map((tag) => tagName(state, orgId, tag))]);
}

export function tagName(state: TfcState, orgId: string, tag: RequestResource): string {
  const name = tag.attributes.string("name") ?? (tag.id ? state.tagName(orgId, tag.id) : undefined);
  if (name === undefined) throw invalidAttribute("tags", "Each tag needs a name or the id of an existing tag", "relationships");
  return name;
}

export function validTags(names: readonly string[]): string[] {
  for (const name of names) {
    if (!TAG.test(name)) {
      throw invalidAttribute("tags", `Tag ${JSON.stringify(name)} is invalid: use letters, digits, ':', '-' and '_' (at most 255)`, "relationships");
    }
  }
  return [...new Set(names)];
}

/** Checks a create or update body against `ws` and returns the settings to write. */
export function workspaceChanges(state: TfcState, ws: WorkspaceRecord, resource: RequestResource): Partial<WorkspaceRecord> {
  const a = resource.attributes;
  const changes: Partial<WorkspaceRecord> = {};
  const name = a.string("name");
  if (name !== undefined) {
    if (!NAME.test(name)) throw invalidAttribute("name", "Name may only contain letters, numbers, '-' and '_' (at most 90)");
    const other = state.workspaceByName(ws.orgId, name);
    if (other && other.id !== ws.id) throw invalidAttribute("name", "Name has already been taken");
    changes.name = name;
  }
  if (a.value("vcs-repo") !== undefined && a.value("vcs-repo") !== null) {
    throw invalidAttribute("vcs-repo", "VCS connections are not supported by this server");
  }
  const version = a.string("terraform-version");
  if (version !== undefined) {
    if (!validTerraformVersion(version)) throw invalidAttribute("terraform-version", `Terraform version ${JSON.stringify(version)} is not a valid version or constraint`);
    changes.terraformVersion = version;
  }
  const booleans = [
    ["auto-apply", "autoApply"], ["allow-destroy-plan", "allowDestroyPlan"], ["file-triggers-enabled", "fileTriggersEnabled"],
    ["queue-all-runs", "queueAllRuns"], ["speculative-enabled", "speculativeEnabled"], ["global-remote-state", "globalRemoteState"],
  ] as const;
  for (const [attribute, field] of booleans) {
    const value = a.boolean(attribute);
    if (value !== undefined) changes[field] = value;
  }
  for (const [attribute, field] of [["trigger-prefixes", "triggerPrefixes"], ["trigger-patterns", "triggerPatterns"]] as const) {
    const value = a.stringArray(attribute);
    if (value !== undefined) changes[field] = value;
  }
  for (const [attribute, field] of [["description", "description"], ["source-name", "sourceName"], ["source-url", "sourceUrl"]] as const) {
    if (a.has(attribute)) changes[field] = a.string(attribute) ?? null;
  }
  const workingDirectory = a.string("working-directory");
  if (workingDirectory !== undefined) {
    if (workingDirectory.split("/").includes("..")) throw invalidAttribute("working-directory", "Working directory must stay inside the configuration");
    changes.workingDirectory = workingDirectory;
  }
  Object.assign(changes, executionChanges(state, ws, resource));
  return changes;
}

function executionChanges(state: TfcState, ws: WorkspaceRecord, resource: RequestResource): Partial<WorkspaceRecord> {
  const a = resource.attributes;
  const modeText = a.string("execution-mode");
  const operations = a.boolean("operations");
  if (modeText !== undefined && !["remote", "local", "agent"].includes(modeText)) {
    throw invalidAttribute("execution-mode", "Execution mode must be remote, local or agent");
  }
  let mode = modeText as ExecutionMode | undefined;
  if (mode === undefined && operations !== undefined) mode = operations ? "remote" : "local";
  const poolGiven = a.has("agent-pool-id") || relationshipId(resource.relationships, "agent-pool") !== undefined;
  const poolId = a.string("agent-pool-id") ?? relationshipId(resource.relationships, "agent-pool");
  const finalMode = mode ?? ws.executionMode;
  const finalPool = poolGiven ? poolId ?? null : mode !== undefined && mode !== "agent" ? null : ws.agentPoolId;
  if (finalPool !== null) {
    const pool = state.agentPools.get(finalPool);
    if (!pool || pool.orgId !== ws.orgId) throw invalidAttribute("agent-pool-id", `Agent pool ${finalPool} does not exist in this organization`);
    if (finalMode !== "agent") throw invalidAttribute("agent-pool-id", "An agent pool can only be set when the execution mode is agent");
  }
  if (finalMode === "agent" && finalPool === null) throw invalidAttribute("agent-pool-id", "Agent execution mode requires an agent pool");
  return { executionMode: finalMode, agentPoolId: finalPool };
}
