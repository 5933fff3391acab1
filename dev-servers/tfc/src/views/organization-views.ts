/** @module JSON:API views of organizations, their entitlement set, capacity and agent pools. */
import type { Resource } from "../http/json-api.ts";
import type { AgentPoolRecord, OrganizationRecord } from "../state/records.ts";
import type { ViewContext } from "./view-context.ts";

const ORGANIZATION_PERMISSIONS = {
  "can-update": true,
  "can-destroy": true,
  "can-access-via-teams": true,
  "can-create-module": true,
  "can-create-team": true,
  "can-create-workspace": true,
  "can-create-workspace-migration": true,
  "can-manage-users": true,
  "can-manage-subscription": true,
  "can-manage-sso": true,
  "can-update-oauth": true,
  "can-update-sentinel": true,
  "can-update-ssh-keys": true,
  "can-update-api-token": true,
  "can-traverse": true,
  "can-start-trial": false,
  "can-update-agent-pools": true,
  "can-manage-tags": true,
  "can-manage-varsets": true,
  "can-read-varsets": true,
  "can-manage-run-tasks": true,
  "can-read-run-tasks": true,
  "can-create-project": true,
};

export function organizationView(org: OrganizationRecord): Resource {
  return {
    id: org.name,
    type: "organizations",
    attributes: {
      "name": org.name,
      "external-id": org.id,
      "created-at": org.createdAt,
      "email": org.email,
      "session-timeout": org.sessionTimeout,
      "session-remember": org.sessionRemember,
      "collaborator-auth-policy": org.collaboratorAuthPolicy,
      "plan-expired": false,
      "plan-expires-at": null,
      "plan-is-trial": false,
      "plan-is-enterprise": false,
      "cost-estimation-enabled": org.costEstimationEnabled,
      "send-passing-statuses-for-untriggered-speculative-plans": false,
      "owners-team-saml-role-id": org.ownersTeamSamlRoleId,
      "saml-enabled": false,
      "two-factor-conformant": false,
      "trial-expires-at": null,
      "fair-run-queuing-enabled": true,
      "assessments-enforced": false,
      "allow-force-delete-workspaces": false,
      "default-execution-mode": "remote",
      "permissions": ORGANIZATION_PERMISSIONS,
    },
    relationships: {
      "entitlement-set": { data: { id: org.id, type: "entitlement-sets" } },
    },
    links: { self: `/api/v2/organizations/${encodeURIComponent(org.name)}` },
  };
}

/** Every feature is entitled; the ones this server backs with behaviour are operations, state storage and agents. */
export function entitlementSetView(org: OrganizationRecord): Resource {
  return {
    id: org.id,
    type: "entitlement-sets",
    attributes: {
      "agents": true,
      "audit-logging": true,
      "configuration-designer": true,
      "cost-estimation": true,
      "global-run-tasks": true,
      "module-tests-generation": false,
      "operations": true,
      "private-module-registry": true,
      "private-run-tasks": true,
      "run-tasks": true,
      "self-serve-billing": false,
      "sentinel": true,
      "sso": true,
      "state-storage": true,
      "teams": true,
      "vcs-integrations": true,
    },
    links: { self: `/api/v2/entitlement-sets/${org.id}` },
  };
}

export function capacityView(org: OrganizationRecord, pending: number, running: number): Resource {
  return { id: org.name, type: "organization-capacity", attributes: { pending, running } };
}

export function agentPoolView(pool: AgentPoolRecord, ctx: ViewContext): Resource {
  const org = ctx.state.organizations.get(pool.orgId)!;
  const workspaceIds = ctx.state.workspacesOf(pool.orgId).filter((ws) => ws.agentPoolId === pool.id).map((ws) => ws.id);
  return {
    id: pool.id,
    type: "agent-pools",
    attributes: { "name": pool.name, "created-at": pool.createdAt, "organization-scoped": true, "agent-count": 0 },
    relationships: {
      organization: { data: { id: org.name, type: "organizations" } },
      workspaces: { data: workspaceIds.map((id) => ({ id, type: "workspaces" })) },
    },
    links: { self: `/api/v2/agent-pools/${pool.id}` },
  };
}
