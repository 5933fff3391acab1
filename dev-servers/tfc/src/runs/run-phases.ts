/**
 * @module RunPhases: carries one run through its plan and its apply for real — queue delay,
 * capacity, the run directory, Terraform — and records what happened on the run, its plan,
 * apply and cost estimate, and the workspace's state versions. Scheduling and the user's actions
 * live in RunEngine; this file only executes.
 */
import type { FileSystem } from "../../../../core/plugin-api/mod.ts";
import { errorMessage, sleep } from "../../../../core/plugin-api/mod.ts";
import { now } from "../state/ids.ts";
import type { PhaseRecord, RunRecord, WorkspaceRecord } from "../state/records.ts";
import { addStateVersion, parseState } from "../state/state-versions.ts";
import type { TfcState } from "../state/tfc-state.ts";
import type { Capacity } from "./capacity.ts";
import { RunDirectory } from "./run-directory.ts";
import { unservableVersion } from "./version-support.ts";
import { setPhaseStatus, setRunStatus } from "./run-transitions.ts";
import { PhaseFailed, type TerraformExecutor } from "./terraform-executor.ts";
import type { TerraformBinary } from "./terraform-binary.ts";

export interface RunPhasesContext {
  readonly state: TfcState;
  readonly files: FileSystem;
  readonly capacity: Capacity;
  /** Directory that holds one scratch directory per run. */
  readonly scratchDir: string;
  readonly terraform: { readonly binary: TerraformBinary; readonly executor: TerraformExecutor } | undefined;
  /** Extra wait in plan_queued and apply_queued (the slow-queue fault). */
  queueDelayMs(): number;
  /** Runs with changes stop in policy_override (the soft-failed policy fault). */
  policyOverride(): boolean;
  /** Ends the run in a final status and lets the workspace's next run start. */
  finish(run: RunRecord, status: "applied" | "planned_and_finished" | "errored" | "canceled"): void;
  /** The run has a plan with changes to apply and nobody needs to confirm it. */
  planReadyToApply(run: RunRecord): void;
}

export class RunPhases {
  readonly #directories = new Map<string, RunDirectory>();

  readonly #ctx: RunPhasesContext;

  constructor(ctx: RunPhasesContext) {
    this.#ctx = ctx;
  }

  runDirectory(runId: string): string {
    return this.#ctx.files.resolve(this.#ctx.scratchDir, runId);
  }

  async removeDirectory(runId: string): Promise<void> {
    this.#directories.delete(runId);
    await this.#ctx.files.remove(this.runDirectory(runId));
  }

  async plan(run: RunRecord, signal: AbortSignal): Promise<void> {
    const { state } = this.#ctx;
    const plan = state.plans.get(run.planId)!;
    setPhaseStatus(plan, "queued");
    try {
      const release = await this.#queue(run, signal);
      try {
        setRunStatus(state, run, "planning");
        setPhaseStatus(plan, "running");
        const terraform = this.#terraform();
        const ws = state.workspaces.get(run.workspaceId)!;
        const unservable = unservableVersion(terraform.binary.version, run.terraformVersion);
        if (unservable) throw new Error(unservable);
        const dir = await this.#prepare(run, ws);
        const outcome = await terraform.executor.plan(dir, run, this.#environment(run, ws), plan.log, signal);
        Object.assign(plan, {
          hasChanges: outcome.hasChanges, jsonPlan: outcome.jsonPlan, resourceAdditions: outcome.additions,
          resourceChanges: outcome.changes, resourceDestructions: outcome.destructions, resourceImports: outcome.imports,
        });
        run.hasChanges = outcome.hasChanges;
        setPhaseStatus(plan, "finished");
      } finally {
        release();
      }
    } catch (error) {
      this.#failed(run, plan, error, signal);
      return;
    }
    this.#afterPlan(run);
  }

  #afterPlan(run: RunRecord): void {
    const { state } = this.#ctx;
    // Its workspace (or organization) was deleted while terraform planned: nothing is left to move on.
    if (!state.runs.has(run.id)) return;
    const plan = state.plans.get(run.planId)!;
    const estimate = run.costEstimateId ? state.costEstimates.get(run.costEstimateId) : undefined;
    if (estimate) {
      estimate.resourcesCount = plan.resourceAdditions + plan.resourceChanges + plan.resourceDestructions;
      estimate.statusTimestamps["queued-at"] = now();
      estimate.status = "finished";
      estimate.statusTimestamps["finished-at"] = now();
    }
    if (run.planOnly || (!run.hasChanges && !run.allowEmptyApply)) {
      this.#unreachable(state.applies.get(run.applyId)!);
      this.#ctx.finish(run, "planned_and_finished");
      return;
    }
    if (estimate) {
      setRunStatus(state, run, "cost_estimating");
      setRunStatus(state, run, "cost_estimated");
    } else {
      setRunStatus(state, run, "planned");
    }
    // A soft-failed policy holds the run until someone overrides or discards it.
    if (this.#ctx.policyOverride()) {
      setRunStatus(state, run, "policy_override");
      return;
    }
    if (run.autoApply) this.#ctx.planReadyToApply(run);
  }

  async apply(run: RunRecord, signal: AbortSignal): Promise<void> {
    const { state } = this.#ctx;
    if (!state.runs.has(run.id)) return; // deleted with its workspace before it was applied
    const apply = state.applies.get(run.applyId)!;
    const plan = state.plans.get(run.planId)!;
    setPhaseStatus(apply, "queued");
    const ws = state.workspaces.get(run.workspaceId)!;
    let dir: RunDirectory | undefined;
    try {
      const release = await this.#queue(run, signal, "apply_queued");
      try {
        setRunStatus(state, run, "applying");
        setPhaseStatus(apply, "running");
        const terraform = this.#terraform();
        dir = this.#directories.get(run.id) ?? await this.#prepare(run, ws);
        const counts = await terraform.executor.apply(dir, this.#environment(run, ws), apply.log, signal, {
          additions: plan.resourceAdditions, changes: plan.resourceChanges,
          destructions: plan.resourceDestructions, imports: plan.resourceImports,
        });
        Object.assign(apply, {
          resourceAdditions: counts.additions, resourceChanges: counts.changes,
          resourceDestructions: counts.destructions, resourceImports: counts.imports,
        });
        await this.#saveState(run, ws, dir);
        setPhaseStatus(apply, "finished");
      } finally {
        release();
      }
    } catch (error) {
      // A failed or interrupted apply may still have changed infrastructure: keep what it wrote.
      if (dir) await this.#saveState(run, ws, dir).catch((saveError) => apply.log.append(`\nError: ${errorMessage(saveError)}\n`));
      this.#failed(run, apply, error, signal);
      return;
    }
    this.#ctx.finish(run, "applied");
  }

  async #queue(run: RunRecord, signal: AbortSignal, status?: "apply_queued"): Promise<() => void> {
    if (status) setRunStatus(this.#ctx.state, run, status);
    const delay = this.#ctx.queueDelayMs();
    if (delay > 0) await sleep(delay, signal);
    return await this.#ctx.capacity.acquire(run.id, signal);
  }

  #terraform(): NonNullable<RunPhasesContext["terraform"]> {
    if (!this.#ctx.terraform) throw new Error("no terraform or tofu binary was found on PATH");
    return this.#ctx.terraform;
  }

  async #prepare(run: RunRecord, ws: WorkspaceRecord): Promise<RunDirectory> {
    const { state, files } = this.#ctx;
    const archive = state.configurationVersions.get(run.configurationVersionId)?.archive;
    if (!archive) throw new Error(`configuration version ${run.configurationVersionId} has no uploaded configuration`);
    const current = ws.currentStateVersionId ? state.stateVersions.get(ws.currentStateVersionId) : undefined;
    const dir = await RunDirectory.prepare(this.runDirectory(run.id), files, {
      archive,
      workingDirectory: ws.workingDirectory,
      variables: state.variablesOf(ws.id),
      runVariables: run.variables,
      currentState: current?.state ?? null,
    });
    this.#directories.set(run.id, dir);
    return dir;
  }

  #environment(run: RunRecord, ws: WorkspaceRecord): Record<string, string> {
    const org = this.#ctx.state.organizationOf(ws);
    const env: Record<string, string> = {
      TFC_RUN_ID: run.id,
      TFC_WORKSPACE_NAME: ws.name,
      TFC_WORKSPACE_SLUG: `${org.name}/${ws.name}`,
      TFC_CONFIGURATION_VERSION_GIT_BRANCH: "",
    };
    for (const variable of this.#ctx.state.variablesOf(ws.id)) if (variable.category === "env") env[variable.key] = variable.value;
    return env;
  }

  /** A new state version when the apply changed the state file. */
  async #saveState(run: RunRecord, ws: WorkspaceRecord, dir: RunDirectory): Promise<void> {
    const { state, files } = this.#ctx;
    if (!(await files.exists(dir.statePath))) return;
    const bytes = new TextEncoder().encode(await files.readText(dir.statePath));
    const current = ws.currentStateVersionId ? state.stateVersions.get(ws.currentStateVersionId) : undefined;
    if (current && sameBytes(current.state, bytes)) return;
    const parsed = parseState(bytes);
    if (!state.workspaces.has(ws.id)) return;
    addStateVersion(state, ws, { bytes, parsed, serial: parsed.serial ?? (current ? current.serial + 1 : 0), lineage: parsed.lineage, runId: run.id });
  }

  #failed(run: RunRecord, phase: PhaseRecord, error: unknown, signal: AbortSignal): void {
    const { state } = this.#ctx;
    if (!state.runs.has(run.id)) return;
    const canceled = signal.aborted;
    if (!canceled && !(error instanceof PhaseFailed)) phase.log.append(`\nError: ${errorMessage(error)}\n`);
    setPhaseStatus(phase, canceled ? "canceled" : "errored");
    const apply = state.applies.get(run.applyId)!;
    if (phase !== apply) this.#unreachable(apply);
    const estimate = run.costEstimateId ? state.costEstimates.get(run.costEstimateId) : undefined;
    if (estimate && estimate.status !== "finished") estimate.status = canceled ? "canceled" : "errored";
    this.#ctx.finish(run, canceled ? "canceled" : "errored");
  }

  #unreachable(phase: PhaseRecord): void {
    if (phase.status === "pending") setPhaseStatus(phase, "unreachable");
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}
