/**
 * @module The task-level block this driver adds, `terraform_cloud_workspace {}` (CTS Enterprise):
 * its schema and CTS's rules for it, which the kernel runs for every task on this driver (config
 * files and API-created tasks) and which refuse the block under any other driver.
 */
import type { BlockProblem, JsonSchema, TaskConfig } from "../../../core/plugin-api/mod.ts";

const BLOCK = "terraform_cloud_workspace";

export const terraformCloudWorkspaceSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    execution_mode: { type: "string", description: `"remote" (the default) or "agent".` },
    agent_pool_id: { type: "string", description: "The agent pool of agent mode, by id." },
    agent_pool_name: { type: "string", description: "The agent pool of agent mode, by name." },
    terraform_version: { type: "string", description: "The workspace's exact Terraform version, x.y.z." },
  },
};

/** CTS's rules: the mode, the pool only (and always) in agent mode, an exact version. */
export function workspaceProblems(task: TaskConfig): BlockProblem[] {
  const ws = task.terraform_cloud_workspace ?? {};
  const problems: BlockProblem[] = [];
  const add = (field: string, message: string) => problems.push({ path: `${BLOCK}.${field}`, message });
  const mode = ws.execution_mode ?? "remote";
  const pool = ws.agent_pool_id !== undefined || ws.agent_pool_name !== undefined;
  if (mode !== "remote" && mode !== "agent") add("execution_mode", `must be "remote" or "agent", got "${mode}"`);
  if (mode === "agent" && !pool) add("execution_mode", `"agent" requires agent_pool_id or agent_pool_name`);
  if (mode !== "agent" && pool) add(ws.agent_pool_id !== undefined ? "agent_pool_id" : "agent_pool_name", `is only allowed with execution_mode = "agent"`);
  if (ws.terraform_version !== undefined && !/^\d+\.\d+\.\d+$/.test(ws.terraform_version)) {
    add("terraform_version", `must be an exact version such as 1.9.5, got "${ws.terraform_version}"`);
  }
  return problems;
}
