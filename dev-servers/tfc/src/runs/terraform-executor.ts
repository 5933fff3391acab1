/**
 * @module Runs the local Terraform through a run's phases in its RunDirectory: `init` and
 * `plan -out` (then `show -json` for counts and the JSON plan), and `apply` of the saved plan.
 * Output streams into the phase's log, which starts with the three lines HCP Terraform's logs
 * start with (the Terraform CLI skips them when it prints an apply log).
 */
import type { ProcessRunner } from "../../../../core/plugin-api/mod.ts";
import type { RunRecord } from "../state/records.ts";
import { PlanOutputFilter } from "./log-lines.ts";
import { applyCounts, planCounts, type ResourceCounts } from "./plan-counts.ts";
import type { RunDirectory } from "./run-directory.ts";
import type { RunLog } from "./run-log.ts";
import type { TerraformBinary } from "./terraform-binary.ts";

/** A phase Terraform itself failed (exit code 1); the log says why. */
export class PhaseFailed extends Error {}

export interface PlanOutcome extends ResourceCounts {
  readonly hasChanges: boolean;
  readonly jsonPlan: string;
}

/** Environment every Terraform command of a run gets, before the workspace's env variables. */
function baseEnvironment(dir: RunDirectory): Record<string, string> {
  return {
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    TF_WORKSPACE: "default",
    TF_DATA_DIR: dir.dataDir,
    TF_CLI_ARGS: "",
    TF_CLI_ARGS_init: "",
    TF_CLI_ARGS_plan: "",
    TF_CLI_ARGS_apply: "",
    TF_CLI_ARGS_show: "",
  };
}

export class TerraformExecutor {
  readonly #binary: TerraformBinary;
  readonly #processes: ProcessRunner;

  constructor(binary: TerraformBinary, processes: ProcessRunner) {
    this.#binary = binary;
    this.#processes = processes;
  }

  #header(log: RunLog): void {
    log.append(`Terraform v${this.#binary.version}\non ${this.#binary.platform}\nInitializing plugins and modules...\n`);
  }

  async #run(dir: RunDirectory, args: string[], env: Record<string, string>, signal: AbortSignal, onOutput?: (chunk: string) => void) {
    return await this.#processes.run(this.#binary.path, args, {
      cwd: dir.workDir,
      env: { ...baseEnvironment(dir), ...env },
      signal,
      ...(onOutput ? { onOutput } : {}),
    });
  }

  async plan(dir: RunDirectory, run: RunRecord, env: Record<string, string>, log: RunLog, signal: AbortSignal): Promise<PlanOutcome> {
    this.#header(log);
    const init = await this.#run(dir, ["init", "-input=false", "-no-color"], env, signal);
    if (init.exitCode !== 0) {
      log.append(init.stdout + init.stderr);
      throw new PhaseFailed(`terraform init exited with ${init.exitCode}`);
    }
    const filter = new PlanOutputFilter(log);
    const plan = await this.#run(dir, planArguments(run, dir.planPath), env, signal, (chunk) => filter.write(chunk));
    filter.end();
    if (plan.exitCode !== 0 && plan.exitCode !== 2) throw new PhaseFailed(`terraform plan exited with ${plan.exitCode}`);
    const show = await this.#run(dir, ["show", "-json", "-no-color", dir.planPath], env, signal);
    if (show.exitCode !== 0) {
      log.append(show.stderr);
      throw new PhaseFailed(`terraform show exited with ${show.exitCode}`);
    }
    return { hasChanges: plan.exitCode === 2, jsonPlan: show.stdout, ...planCounts(show.stdout) };
  }

  /** Applies the saved plan; the counts come from Terraform's summary line, else from the plan. */
  async apply(dir: RunDirectory, env: Record<string, string>, log: RunLog, signal: AbortSignal, planned: ResourceCounts): Promise<ResourceCounts> {
    this.#header(log);
    let output = "";
    const apply = await this.#run(dir, ["apply", "-input=false", "-no-color", dir.planPath], env, signal, (chunk) => {
      output += chunk;
      log.append(chunk);
    });
    if (apply.exitCode !== 0) throw new PhaseFailed(`terraform apply exited with ${apply.exitCode}`);
    return applyCounts(output) ?? planned;
  }
}

function planArguments(run: RunRecord, planPath: string): string[] {
  const args = ["plan", "-input=false", "-no-color", "-detailed-exitcode", `-out=${planPath}`];
  if (run.isDestroy) args.push("-destroy");
  if (run.refreshOnly) args.push("-refresh-only");
  else if (!run.refresh) args.push("-refresh=false");
  for (const target of run.targetAddrs ?? []) args.push(`-target=${target}`);
  for (const replace of run.replaceAddrs ?? []) args.push(`-replace=${replace}`);
  return args;
}
