/**
 * @module Drift detection and destroy previews with the Terraform CLI, changing nothing: a
 * refresh-only plan finds resources changed outside Terraform, a normal plan finds what an apply
 * would change; both are saved to a file only long enough for `terraform show -json` to read them
 * by resource address (a saved plan holds variable values, so it never outlives the check).
 */
import type { DriftReport, FileSystem, InspectPlan, JsonPlanChange } from "../../../core/plugin-api/mod.ts";
import { mergeResourceChanges, resourceChangesOf } from "../../../core/plugin-api/mod.ts";
import type { TerraformCli } from "./terraform-cli.ts";
import { planArgs } from "./terraform-commands.ts";

/** At most this many addresses in a list of the resources left, so a run record stays small. */
const MAX_RESOURCES = 100;

interface JsonPlan {
  readonly resource_drift?: readonly JsonPlanChange[];
  readonly resource_changes?: readonly JsonPlanChange[];
}

export interface DriftPlanContext {
  readonly cli: TerraformCli;
  readonly fs: FileSystem;
  readonly taskName: string;
  readonly lockTimeout: string;
  /** Absolute path of a plan file in the task's working directory. */
  readonly planFile: (name: string) => string;
}

/** Plans (`extra` flags), saves the plan, and reads it back as JSON; the file is removed either way. */
async function savedPlan(ctx: DriftPlanContext, what: string, extra: readonly string[], file: string, signal: AbortSignal): Promise<JsonPlan> {
  const path = ctx.planFile(file);
  const args = [...planArgs(ctx.lockTimeout), ...extra, `-out=${path}`];
  try {
    const planned = await ctx.cli.runLocking(what, args, signal);
    if (planned.exitCode !== 0 && planned.exitCode !== 2) throw ctx.cli.failure(what, args, planned);
    const showArgs = ["show", "-json", "-no-color", path];
    const shown = await ctx.cli.run(showArgs, signal);
    if (shown.exitCode !== 0) throw ctx.cli.failure(what, showArgs, shown);
    return JSON.parse(shown.stdout) as JsonPlan;
  } finally {
    await ctx.fs.remove(path).catch(() => undefined);
  }
}

/** A refresh-only plan, then a normal plan, with the inputs rendered in the working directory. */
export async function checkDrift(ctx: DriftPlanContext, signal: AbortSignal): Promise<DriftReport> {
  const what = `check task "${ctx.taskName}" for drift`;
  const refreshed = await savedPlan(ctx, what, ["-refresh-only"], ".cts-drift-refresh.tfplan", signal);
  const planned = await savedPlan(ctx, what, [], ".cts-drift.tfplan", signal);
  const resources = mergeResourceChanges(
    resourceChangesOf(refreshed.resource_drift, { reads: false }), resourceChangesOf(planned.resource_changes, { reads: false }),
  );
  return { drifted: resources.length > 0, resources };
}

/** `terraform plan -destroy`: what deleting the task with `destroy` would remove. */
export async function planDestroy(ctx: DriftPlanContext, signal: AbortSignal): Promise<InspectPlan> {
  const what = `plan the destroy of task "${ctx.taskName}"`;
  const args = [...planArgs(ctx.lockTimeout), "-destroy"];
  const result = await ctx.cli.runLocking(what, args, signal);
  if (result.exitCode !== 0 && result.exitCode !== 2) throw ctx.cli.failure(what, args, result);
  return { changesPresent: result.exitCode === 2, plan: result.stdout };
}

/** `terraform state list`: the addresses the task's state still holds. */
export async function stateResources(ctx: DriftPlanContext, signal: AbortSignal): Promise<readonly string[] | undefined> {
  const result = await ctx.cli.run(["state", "list"], signal);
  if (result.exitCode !== 0) return undefined;
  return result.stdout.split("\n").map((line) => line.trim()).filter((line) => line !== "").slice(0, MAX_RESOURCES);
}
