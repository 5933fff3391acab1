/** @module The server's in-memory records, one interface per HCP Terraform resource type. */
import type { RunLog } from "../runs/run-log.ts";

export interface OrganizationRecord {
  /** The organization's `external-id` (`org-…`); the API addresses it by name. */
  readonly id: string;
  name: string;
  email: string;
  readonly createdAt: string;
  sessionTimeout: number | null;
  sessionRemember: number | null;
  collaboratorAuthPolicy: string;
  costEstimationEnabled: boolean;
  ownersTeamSamlRoleId: string | null;
}

export type ExecutionMode = "remote" | "local" | "agent";

/** Who holds a workspace lock: a user (the API token) or a run. */
export interface WorkspaceLock {
  readonly by: "user" | "run";
  readonly runId?: string;
  readonly reason: string;
}

export interface WorkspaceRecord {
  readonly id: string;
  readonly orgId: string;
  name: string;
  description: string | null;
  readonly createdAt: string;
  updatedAt: string;
  autoApply: boolean;
  allowDestroyPlan: boolean;
  executionMode: ExecutionMode;
  agentPoolId: string | null;
  fileTriggersEnabled: boolean;
  queueAllRuns: boolean;
  speculativeEnabled: boolean;
  terraformVersion: string;
  triggerPrefixes: string[];
  triggerPatterns: string[];
  workingDirectory: string;
  globalRemoteState: boolean;
  sourceName: string | null;
  sourceUrl: string | null;
  /** Tag names, in the order they were added. */
  tagNames: string[];
  lock: WorkspaceLock | null;
  currentRunId: string | null;
  latestRunId: string | null;
  currentStateVersionId: string | null;
  currentConfigurationVersionId: string | null;
}

export type VariableCategory = "terraform" | "env";

export interface VariableRecord {
  readonly id: string;
  readonly workspaceId: string;
  key: string;
  value: string;
  description: string;
  readonly category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  readonly createdAt: string;
  versionId: string;
}

export type ConfigurationStatus = "pending" | "uploaded" | "errored";

export interface ConfigurationVersionRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly autoQueueRuns: boolean;
  readonly speculative: boolean;
  readonly provisional: boolean;
  readonly source: string;
  status: ConfigurationStatus;
  errorMessage: string | null;
  readonly statusTimestamps: Record<string, string>;
  readonly uploadSecret: string;
  archive: Uint8Array | null;
  readonly createdAt: string;
}

export type RunStatus =
  | "pending" | "plan_queued" | "planning" | "planned" | "cost_estimating" | "cost_estimated"
  | "policy_override" | "confirmed" | "apply_queued" | "applying" | "applied" | "planned_and_finished"
  | "discarded" | "errored" | "canceled";

/** A run-specific Terraform variable: `value` is an HCL expression. */
export interface RunVariable {
  readonly key: string;
  readonly value: string;
}

export interface RunRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly configurationVersionId: string;
  readonly createdAt: string;
  readonly message: string;
  readonly source: string;
  readonly isDestroy: boolean;
  readonly refresh: boolean;
  readonly refreshOnly: boolean;
  readonly autoApply: boolean;
  readonly planOnly: boolean;
  readonly allowEmptyApply: boolean;
  readonly targetAddrs: readonly string[] | null;
  readonly replaceAddrs: readonly string[] | null;
  readonly variables: readonly RunVariable[];
  readonly terraformVersion: string;
  status: RunStatus;
  readonly statusTimestamps: Record<string, string>;
  hasChanges: boolean;
  /** Set by a cancel request; force-cancel is possible from then on. */
  forceCancelAvailableAt: string | null;
  readonly planId: string;
  readonly applyId: string;
  readonly costEstimateId: string | null;
}

export type PhaseStatus = "pending" | "queued" | "running" | "finished" | "errored" | "canceled" | "unreachable";

/** A plan or an apply: the two phases of a run share one shape. */
export interface PhaseRecord {
  readonly id: string;
  readonly runId: string;
  status: PhaseStatus;
  readonly statusTimestamps: Record<string, string>;
  resourceAdditions: number;
  resourceChanges: number;
  resourceDestructions: number;
  resourceImports: number;
  readonly log: RunLog;
  readonly logSecret: string;
}

export interface PlanRecord extends PhaseRecord {
  hasChanges: boolean;
  /** `terraform show -json` of the saved plan, once planned. */
  jsonPlan: string | null;
}

export type CostEstimateStatus = "pending" | "queued" | "finished" | "errored" | "canceled";

export interface CostEstimateRecord {
  readonly id: string;
  readonly runId: string;
  status: CostEstimateStatus;
  readonly statusTimestamps: Record<string, string>;
  resourcesCount: number;
}

export interface StateVersionOutputRecord {
  readonly id: string;
  readonly name: string;
  readonly sensitive: boolean;
  /** HCP Terraform's simple type name: string, number, bool, array, object. */
  readonly type: string;
  /** The Terraform type as written in the state (e.g. `["list","string"]`). */
  readonly detailedType: unknown;
  readonly value: unknown;
}

export interface StateVersionRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly runId: string | null;
  readonly createdAt: string;
  readonly serial: number;
  readonly lineage: string | null;
  readonly md5: string;
  readonly state: Uint8Array;
  readonly downloadSecret: string;
  readonly outputs: readonly StateVersionOutputRecord[];
  readonly resourceCount: number;
  readonly terraformVersion: string | null;
  readonly stateFormatVersion: number | null;
}

export interface AgentPoolRecord {
  readonly id: string;
  readonly orgId: string;
  name: string;
  readonly createdAt: string;
}

export interface RunEventRecord {
  readonly id: string;
  readonly runId: string;
  readonly action: string;
  readonly description: string;
  readonly createdAt: string;
}
