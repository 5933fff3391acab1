/**
 * @module The task-level block this driver adds, `terraform_cloud_workspace {}` (CTS Enterprise), and
 * CTS's deprecated task field `terraform_version` it stands for: their schemas, how the task reads
 * them (empty values unset, the deprecated field folded into the block) and CTS's rules, which the
 * kernel runs for every task on this driver (config files and API-created tasks) and which refuse
 * both under any other driver.
 */
import {
  type BlockProblem, type JsonSchema, type OptionsOf, type TaskBlocksCompletion, type TaskConfig, taskBlockOf,
} from "../../../core/plugin-api/mod.ts";

const BLOCK = "terraform_cloud_workspace";

export const terraformCloudWorkspaceSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    execution_mode: { type: "string", description: `"remote" (the default) or "agent".` },
    agent_pool_id: { type: "string", description: "The agent pool of agent mode, by id." },
    agent_pool_name: { type: "string", description: "The agent pool of agent mode, by name." },
    terraform_version: { type: "string", description: "The workspace's exact Terraform version, x.y.z." },
  },
} as const satisfies JsonSchema;

/** The block as the kernel completed it: checked against the schema, only non-empty fields present. */
export type TerraformCloudWorkspace = OptionsOf<typeof terraformCloudWorkspaceSchema>;

/** The task's block (empty when the task has none). */
export function workspaceBlockOf(task: TaskConfig): TerraformCloudWorkspace {
  return (taskBlockOf(task, BLOCK) ?? {}) as TerraformCloudWorkspace;
}

/** The task-level fields this driver declares (DriverFactory.taskBlocks). */
export const workspaceTaskBlocks: Readonly<Record<string, JsonSchema>> = {
  [BLOCK]: terraformCloudWorkspaceSchema,
  terraform_version: { type: "string", description: `Deprecated: use ${BLOCK} { terraform_version = "..." }.` },
};

/** The block's non-empty fields (CTS: empty counts as unset), with the deprecated task field folded in. */
export function completeWorkspaceFields(fields: Readonly<Record<string, unknown>>): TaskBlocksCompletion {
  const written = (fields[BLOCK] ?? {}) as Readonly<Record<string, unknown>>;
  const block: Record<string, unknown> = Object.fromEntries(Object.entries(written).filter(([, value]) => value !== ""));
  const deprecated = typeof fields.terraform_version === "string" ? fields.terraform_version : "";
  const deprecations: BlockProblem[] = [];
  if (deprecated !== "") {
    deprecations.push({ path: "terraform_version", message: `deprecated; use ${BLOCK} { terraform_version = "..." }` });
    block.terraform_version ??= deprecated;
  }
  return { fields: Object.keys(block).length > 0 ? { [BLOCK]: block } : {}, deprecations };
}

/** CTS's rules: the mode, the pool only (and always) in agent mode, an exact version; CTS's own sentence follows ours. */
export function workspaceProblems(task: TaskConfig): BlockProblem[] {
  const ws = workspaceBlockOf(task);
  const problems: BlockProblem[] = [];
  const add = (field: string, message: string) => problems.push({ path: `${BLOCK}.${field}`, message });
  const mode = ws.execution_mode ?? "remote";
  const pool = ws.agent_pool_id !== undefined || ws.agent_pool_name !== undefined;
  if (mode !== "remote" && mode !== "agent") {
    add("execution_mode", `must be "remote" or "agent", got "${mode}" (execution mode '${mode}' not supported for CTS, use 'remote' or 'agent' instead)`);
  }
  if (mode === "agent" && !pool) {
    add("execution_mode", `"agent" requires agent_pool_id or agent_pool_name (agent_pool_id or agent_pool_name is required if execution mode is 'agent')`);
  }
  if (mode !== "agent" && pool) {
    add(ws.agent_pool_id !== undefined ? "agent_pool_id" : "agent_pool_name",
      `is only allowed with execution_mode = "agent" (agent pool configured when execution mode is not 'agent')`);
  }
  if (ws.terraform_version !== undefined) {
    const problem = versionProblem(ws.terraform_version);
    if (problem) add("terraform_version", problem);
  }
  return problems;
}

/**
 * The oldest Terraform the generated root module runs on (its `required_version`). CTS also caps
 * the newest (1.14.3 in CTS 0.9); cts-runtime does not: a newer Terraform is the user's choice.
 */
const OLDEST = [0, 13, 0] as const;

/** CTS's checks of the version, with CTS's sentences after ours (scripts look for them). */
function versionProblem(version: string): string | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-[0-9A-Za-z.-]+)?$/.exec(version);
  if (!match) return `must be an exact version such as 1.9.5, got "${version}" (Malformed version: ${version})`;
  if (match[3] === undefined) {
    return `must be an exact version such as 1.9.5, got "${version}" (provide the exact Terraform version to install: ${version})`;
  }
  const parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  const older = parts.findIndex((part, i) => part !== OLDEST[i]);
  if (older >= 0 && parts[older]! < OLDEST[older]!) {
    return `must be ${OLDEST.join(".")} or newer, got "${version}" (Terraform version is not supported by Consul-Terraform-Sync, ` +
      `try updating to a different version (>= ${OLDEST.join(".")}): ${version})`;
  }
  return undefined;
}
