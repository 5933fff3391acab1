/**
 * @module RunEngine: queues runs per workspace as HCP Terraform does — one non-speculative run at
 * a time holds the workspace (its lock and `current-run`), later ones wait `pending`; plan-only
 * runs go straight on — and carries out the run actions (apply, discard, cancel, force-cancel).
 * RunPhases does the executing.
 */
import type { FileSystem } from "../../../../core/plugin-api/mod.ts";
import { conflict } from "../http/api-error.ts";
import { newId, newSecret, now } from "../state/ids.ts";
import type { PhaseRecord, RunRecord, WorkspaceRecord } from "../state/records.ts";
import type { TfcState } from "../state/tfc-state.ts";
import { Capacity } from "./capacity.ts";
import { RunLog } from "./run-log.ts";
import { RunPhases, type RunPhasesContext } from "./run-phases.ts";
import {
  isCancelable, isConfirmable, isDiscardable, isFinal, isForceCancelable, setPhaseStatus, setRunStatus,
} from "./run-transitions.ts";

/** How long after a cancel request force-cancel becomes available (HCP Terraform's cool-off). */
const FORCE_CANCEL_COOL_OFF_MS = 60 * 60 * 1000;

/** What a client asks for when it creates a run: the run record's request fields. */
export type NewRun = Pick<RunRecord, "configurationVersionId" | "message" | "source" | "isDestroy" | "refresh"
  | "refreshOnly" | "autoApply" | "planOnly" | "allowEmptyApply" | "targetAddrs" | "replaceAddrs" | "variables">
  & { readonly workspace: WorkspaceRecord };

export interface RunEngineOptions extends Omit<RunPhasesContext, "capacity" | "finish" | "planReadyToApply"> {
  readonly maxConcurrentRuns: number;
}

function newPhase(id: string, runId: string): PhaseRecord {
  return {
    id, runId, status: "pending", statusTimestamps: {}, resourceAdditions: 0, resourceChanges: 0,
    resourceDestructions: 0, resourceImports: 0, log: new RunLog(), logSecret: newSecret(),
  };
}

export class RunEngine {
  readonly capacity: Capacity;
  readonly #state: TfcState;
  readonly #files: FileSystem;
  readonly #phases: RunPhases;
  /** Runs executing (from plan_queued or apply_queued until they stop), with their abort switch. */
  readonly #active = new Map<string, { controller: AbortController; task: Promise<void> }>();
  #stopped = false;

  constructor(options: RunEngineOptions) {
    this.#state = options.state;
    this.#files = options.files;
    this.capacity = new Capacity(options.maxConcurrentRuns);
    this.#phases = new RunPhases({
      ...options,
      queueDelayMs: () => options.queueDelayMs(),
      policyOverride: () => options.policyOverride(),
      capacity: this.capacity,
      finish: (run, status) => this.#finish(run, status),
      planReadyToApply: (run) => this.#start(run, "apply"),
    });
  }

  create(input: NewRun): RunRecord {
    const state = this.#state;
    const org = state.organizationOf(input.workspace);
    const { workspace: ws, ...fields } = input;
    const run: RunRecord = {
      ...fields,
      id: newId("run"),
      workspaceId: ws.id,
      createdAt: now(),
      terraformVersion: ws.terraformVersion,
      status: "pending",
      statusTimestamps: {},
      hasChanges: false,
      forceCancelAvailableAt: null,
      planId: newId("plan"),
      applyId: newId("apply"),
      costEstimateId: org.costEstimationEnabled ? newId("ce") : null,
    };
    state.runs.set(run.id, run);
    state.plans.set(run.planId, { ...newPhase(run.planId, run.id), hasChanges: false, jsonPlan: null });
    state.applies.set(run.applyId, newPhase(run.applyId, run.id));
    if (run.costEstimateId) {
      state.costEstimates.set(run.costEstimateId, { id: run.costEstimateId, runId: run.id, status: "pending", statusTimestamps: {}, resourcesCount: 0 });
    }
    setRunStatus(state, run, "pending");
    ws.latestRunId = run.id;
    this.pump(ws);
    return run;
  }

  positionInQueue(runId: string): number {
    return this.capacity.position(runId);
  }

  /** Starts whatever may start in the workspace: plan-only runs at once, else its oldest pending run. */
  pump(ws: WorkspaceRecord): void {
    if (this.#stopped) return;
    const pending = this.#state.runsOf(ws.id).filter((run) => run.status === "pending").reverse();
    for (const run of pending.filter((r) => r.planOnly)) this.#start(run, "plan");
    const next = pending.find((run) => !run.planOnly);
    if (!next || ws.lock !== null) return;
    ws.lock = { by: "run", runId: next.id, reason: "" };
    ws.currentRunId = next.id;
    this.#start(next, "plan");
  }

  /** The `apply` action: confirms a run waiting for confirmation. */
  confirm(run: RunRecord): void {
    if (!isConfirmable(run)) throw conflict("The run is not waiting for confirmation", "transition not allowed");
    setRunStatus(this.#state, run, "confirmed");
    this.#start(run, "apply");
  }

  discard(run: RunRecord): void {
    if (!isDiscardable(run)) throw conflict("The run cannot be discarded in its current state", "transition not allowed");
    for (const phase of [this.#state.plans.get(run.planId)!, this.#state.applies.get(run.applyId)!]) {
      if (phase.status === "pending") setPhaseStatus(phase, "unreachable");
    }
    this.#finish(run, "discarded");
  }

  cancel(run: RunRecord): void {
    if (!isCancelable(run)) throw conflict("The run cannot be canceled in its current state", "transition not allowed");
    run.forceCancelAvailableAt = new Date(Date.now() + FORCE_CANCEL_COOL_OFF_MS).toISOString();
    const active = this.#active.get(run.id);
    if (active) {
      active.controller.abort(new Error("run canceled"));
      return;
    }
    for (const phase of [this.#state.plans.get(run.planId)!, this.#state.applies.get(run.applyId)!]) {
      if (phase.status === "pending") setPhaseStatus(phase, phase.id === run.planId ? "canceled" : "unreachable");
    }
    this.#finish(run, "canceled");
  }

  forceCancel(run: RunRecord): void {
    if (!isForceCancelable(run)) throw conflict("The run is not force-cancelable: cancel it first and wait for the cool-off", "transition not allowed");
    this.#active.get(run.id)?.controller.abort(new Error("run force-canceled"));
    run.statusTimestamps["force-canceled-at"] = now();
    if (!isFinal(run.status)) this.#finish(run, "canceled");
  }

  /** Stops every run of a workspace (before it is deleted) and waits for them to let go. */
  async stopWorkspace(workspaceId: string): Promise<void> {
    const tasks: Promise<void>[] = [];
    for (const [runId, active] of this.#active) {
      if (this.#state.runs.get(runId)?.workspaceId !== workspaceId) continue;
      active.controller.abort(new Error("workspace deleted"));
      tasks.push(active.task);
    }
    await Promise.allSettled(tasks);
    await Promise.allSettled(this.#state.runsOf(workspaceId).map((run) => this.#phases.removeDirectory(run.id)));
  }

  /** Aborts every run and waits for them all to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const active of this.#active.values()) active.controller.abort(new Error("server stopping"));
    await Promise.allSettled([...this.#active.values()].map((active) => active.task));
  }

  #start(run: RunRecord, phase: "plan" | "apply"): void {
    if (this.#stopped) return;
    if (phase === "plan") setRunStatus(this.#state, run, "plan_queued");
    const controller = new AbortController();
    const task = (phase === "plan" ? this.#phases.plan(run, controller.signal) : this.#phases.apply(run, controller.signal))
      .finally(() => {
        if (this.#active.get(run.id)?.task === task) this.#active.delete(run.id);
      });
    this.#active.set(run.id, { controller, task });
  }

  #finish(run: RunRecord, status: "applied" | "planned_and_finished" | "errored" | "canceled" | "discarded"): void {
    if (isFinal(run.status) || !this.#state.runs.has(run.id)) return;
    setRunStatus(this.#state, run, status);
    void this.#phases.removeDirectory(run.id).catch(() => undefined);
    const ws = this.#state.workspaces.get(run.workspaceId);
    if (!ws) return;
    if (ws.lock?.by === "run" && ws.lock.runId === run.id) ws.lock = null;
    this.pump(ws);
  }
}
