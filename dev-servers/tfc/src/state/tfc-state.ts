/**
 * @module TfcState: every record the server holds, by id, with the lookups the API needs
 * (organization by name, workspace by organization and name) and cascading deletes.
 * Records are plain objects mutated in place by the routes and the run engine; this class owns
 * only membership.
 */
import { newId } from "./ids.ts";
import type {
  AgentPoolRecord, ConfigurationVersionRecord, CostEstimateRecord, OrganizationRecord, PhaseRecord,
  PlanRecord, RunEventRecord, RunRecord, StateVersionRecord, VariableRecord, WorkspaceRecord,
} from "./records.ts";

export class TfcState {
  readonly organizations = new Map<string, OrganizationRecord>();
  readonly workspaces = new Map<string, WorkspaceRecord>();
  readonly variables = new Map<string, VariableRecord>();
  readonly configurationVersions = new Map<string, ConfigurationVersionRecord>();
  readonly runs = new Map<string, RunRecord>();
  readonly plans = new Map<string, PlanRecord>();
  readonly applies = new Map<string, PhaseRecord>();
  readonly costEstimates = new Map<string, CostEstimateRecord>();
  readonly stateVersions = new Map<string, StateVersionRecord>();
  readonly agentPools = new Map<string, AgentPoolRecord>();
  readonly runEvents = new Map<string, RunEventRecord[]>();
  /** Tag ids by `<org id>/<tag name>`: a tag is an organization-wide resource with a stable id. */
  readonly #tagIds = new Map<string, string>();

  tagId(orgId: string, name: string): string {
    const key = `${orgId}/${name}`;
    let id = this.#tagIds.get(key);
    if (!id) this.#tagIds.set(key, id = newId("tag"));
    return id;
  }

  /** The name of a tag id in an organization, if it was ever used there. */
  tagName(orgId: string, id: string): string | undefined {
    for (const [key, tagId] of this.#tagIds) if (tagId === id && key.startsWith(`${orgId}/`)) return key.slice(orgId.length + 1);
    return undefined;
  }

  organizationByName(name: string): OrganizationRecord | undefined {
    for (const org of this.organizations.values()) if (org.name === name) return org;
    return undefined;
  }

  workspacesOf(orgId: string): WorkspaceRecord[] {
    return [...this.workspaces.values()].filter((ws) => ws.orgId === orgId);
  }

  workspaceByName(orgId: string, name: string): WorkspaceRecord | undefined {
    for (const ws of this.workspaces.values()) if (ws.orgId === orgId && ws.name === name) return ws;
    return undefined;
  }

  variablesOf(workspaceId: string): VariableRecord[] {
    return [...this.variables.values()].filter((v) => v.workspaceId === workspaceId);
  }

  /** Newest first, as HCP Terraform lists them. */
  configurationVersionsOf(workspaceId: string): ConfigurationVersionRecord[] {
    return [...this.configurationVersions.values()].filter((cv) => cv.workspaceId === workspaceId).reverse();
  }

  /** Newest first. */
  runsOf(workspaceId: string): RunRecord[] {
    return [...this.runs.values()].filter((run) => run.workspaceId === workspaceId).reverse();
  }

  /** Newest first. */
  stateVersionsOf(workspaceId: string): StateVersionRecord[] {
    return [...this.stateVersions.values()].filter((sv) => sv.workspaceId === workspaceId).reverse();
  }

  agentPoolsOf(orgId: string): AgentPoolRecord[] {
    return [...this.agentPools.values()].filter((pool) => pool.orgId === orgId);
  }

  organizationOf(ws: WorkspaceRecord): OrganizationRecord {
    return this.organizations.get(ws.orgId)!;
  }

  addRunEvent(event: RunEventRecord): void {
    const events = this.runEvents.get(event.runId) ?? [];
    events.push(event);
    this.runEvents.set(event.runId, events);
  }

  /** Removes a workspace and everything it owns (the caller stops its runs first). */
  deleteWorkspace(workspaceId: string): void {
    for (const run of this.runsOf(workspaceId)) this.deleteRun(run);
    for (const [id, v] of this.variables) if (v.workspaceId === workspaceId) this.variables.delete(id);
    for (const [id, cv] of this.configurationVersions) if (cv.workspaceId === workspaceId) this.configurationVersions.delete(id);
    for (const [id, sv] of this.stateVersions) if (sv.workspaceId === workspaceId) this.stateVersions.delete(id);
    this.workspaces.delete(workspaceId);
  }

  /** Removes an organization with its workspaces and agent pools (the caller stops their runs first). */
  deleteOrganization(orgId: string): void {
    for (const ws of this.workspacesOf(orgId)) this.deleteWorkspace(ws.id);
    for (const pool of this.agentPoolsOf(orgId)) this.agentPools.delete(pool.id);
    this.organizations.delete(orgId);
  }

  private deleteRun(run: RunRecord): void {
    this.plans.delete(run.planId);
    this.applies.delete(run.applyId);
    if (run.costEstimateId) this.costEstimates.delete(run.costEstimateId);
    this.runEvents.delete(run.id);
    this.runs.delete(run.id);
  }
}
