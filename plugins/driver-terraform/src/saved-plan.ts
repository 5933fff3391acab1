/**
 * @module A run's plan, saved to a file in the task's working directory so the apply applies
 * exactly what was planned and its JSON tells the resources and the module's outputs; then the
 * outputs after the apply. The plan file holds variable values (secrets): it is removed after the
 * run, and its JSON never goes to the log. A plan that cannot be read as JSON (an old Terraform)
 * only costs the run its resource list.
 */
import type { Logger, ProcessResult, RunObserver, RunOutput, RunPhase } from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import { outputsExpression, parseOutputs } from "./module-outputs.ts";
import { type PlanFindings, planFindings } from "./plan-findings.ts";
import type { RunOutputOptions, TerraformCli } from "./terraform-cli.ts";
import { consoleArgs, planArgs, showPlanArgs } from "./terraform-commands.ts";

/** What a command prints, told to `observer` as `phase` output. */
export function observed(observer: RunObserver | undefined, phase: RunPhase): RunOutputOptions {
  return observer ? { onOutput: (chunk) => observer.output(phase, chunk) } : {};
}

export interface SavedPlanOptions {
  readonly cli: TerraformCli;
  readonly logger: Logger;
  /** Absolute path of the plan file. */
  readonly file: string;
  readonly lockTimeout: string;
  /** The module block's name in the root module: the task's name. */
  readonly moduleName: string;
}

export interface SavedPlanStep {
  readonly result: ProcessResult;
  readonly changesPresent: boolean;
  readonly ms: number;
  /** `terraform show -json` of the plan, read while the caller goes on (an apply of the same file may run meanwhile). */
  readonly findings: Promise<PlanFindings | undefined>;
}

/**
 * `terraform plan -out`, then `terraform show -json` of it in the background (it reads only the
 * file, no state: an apply of the same plan can run at the same time). Throws `cli.failure` when
 * the plan fails. The findings are told to `observer` as soon as they are read.
 */
export async function savePlan(what: string, options: SavedPlanOptions, signal: AbortSignal, observer?: RunObserver): Promise<SavedPlanStep> {
  const { cli, logger, file } = options;
  const args = planArgs(options.lockTimeout, file);
  const started = Date.now();
  const result = await cli.runLocking(what, args, signal, observed(observer, "plan"));
  const ms = Date.now() - started;
  if (result.exitCode !== 0 && result.exitCode !== 2) throw cli.failure(what, args, result);
  const findings = cli.run(showPlanArgs(file), signal, { quiet: true }).then((shown) => {
    if (shown.exitCode !== 0) throw new Error(`exit code ${shown.exitCode}`);
    return planFindings(shown.stdout, options.moduleName);
  }).catch((error: unknown) => {
    logger.warn("cannot read the saved plan as JSON: the run is recorded without its resources", { error: errorMessage(error) });
    return undefined;
  }).then((found) => {
    // Told now: an apply that fails later still leaves what it planned in the run's record.
    observer?.findings?.({ ...(found ? { resources: found.resources } : {}), phases_ms: { plan: ms } });
    return found;
  });
  return { result, changesPresent: result.exitCode === 2, findings, ms };
}

/** The module's outputs after an apply; undefined when it declares none or they cannot be read. */
export async function readModuleOutputs(
  options: SavedPlanOptions, findings: PlanFindings, signal: AbortSignal,
): Promise<Record<string, RunOutput> | undefined> {
  const { names, hidden } = findings.outputs;
  if (names.length === 0) return undefined;
  const answer = await options.cli.run(consoleArgs(), signal, { quiet: true, input: outputsExpression(options.moduleName, hidden) });
  const outputs = answer.exitCode === 0 ? parseOutputs(answer.stdout, findings.outputs) : undefined;
  // A value Terraform cannot tell from the state prints "(known after apply)": no outputs then.
  if (!outputs) options.logger.warn("cannot read the module's outputs after the apply", { exit_code: answer.exitCode });
  return outputs;
}
