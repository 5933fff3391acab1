/**
 * @module Drift detection and destroy previews with the Terraform CLI, changing nothing: a
 * refresh-only plan finds resources changed outside Terraform, a normal plan finds what an apply
 * would change; both are saved to a file only long enough for `terraform show -json` to read them
 * by resource address (a saved plan holds variable values, so it never outlives the check).
 */
import type { DriftReport, FileSystem, InspectPlan, ResourceAction } from "../../../core/plugin-api/mod.ts";
import type { TerraformCli } from "./terraform-cli.ts";
import { planArgs } from "./terraform-commands.ts";

/** At most this many resources per report, so a run record stays small. */
const MAX_RESOURCES = 100;

interface JsonResourceChange {
  readonly address?: string;
  readonly change?: { readonly actions?: readonly string[] };
}

interface JsonPlan {
  readonly resource_drift?: readonly JsonResourceChange[];
  readonly resource_changes?: readonly JsonResourceChange[];
}

/** Terraform's action list as one word: `["delete","create"]` is a replace; no-op and read are none. */
export function actionOf(actions: readonly string[]): string | undefined {
  if (actions.includes("create") && actions.includes("delete")) return "replace";
  const action = actions.find((candidate) => candidate !== "no-op" && candidate !== "read");
  return action;
}

/** The resources of a JSON plan's `resource_drift` or `resource_changes` that change. */
export function changedResources(changes: readonly JsonResourceChange[] | undefined): ResourceAction[] {
  const out: ResourceAction[] = [];
  for (const change of changes ?? []) {
    const action = actionOf(change.change?.actions ?? []);
    if (change.address && action) out.push({ address: change.address, action });
  }
  return out;
}

/** Merges the two plans' findings: one entry per address, the refresh-only plan's action first. */
export function mergeFindings(drifted: readonly ResourceAction[], planned: readonly ResourceAction[]): ResourceAction[] {
  const seen = new Map<string, ResourceAction>();
  for (const resource of [...drifted, ...planned]) if (!seen.has(resource.address)) seen.set(resource.address, resource);
  return [...seen.values()].slice(0, MAX_RESOURCES);
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
  const resources = mergeFindings(changedResources(refreshed.resource_drift), changedResources(planned.resource_changes));
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
