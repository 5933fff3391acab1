/**
 * @module One task's HCP Terraform driver. init: the upload is packed and the workspace checked,
 * read only; apply: on the first run the workspace is found or created and the configuration
 * uploaded (CTS's start-up steps), then variables are written when changed and one run is queued
 * and followed to its end; plan (inspect): a speculative run whose inputs travel as run variables,
 * so the workspace is left untouched. A run is queued only when the rendered inputs differ from the
 * last applied run: its message carries a hash of them, so a restarted daemon or a new HA leader
 * queues nothing when nothing changed.
 */
import {
  type ApplyResult, CtsError, type DestroyResult, type Driver, type DriverContext, type DriftReport, errorMessage, type FileSystem,
  type InspectPlan, type Logger, type RunFindings, type RunObserver, type TaskConfig, type TaskInputs, type TerraformRootModule,
  type TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";
import { sha256Hex } from "./bytes.ts";
import { checkDriftRuns, type PlanOnlyContext, planDestroyRun, workspaceResources } from "./plan-only-runs.ts";
import { taskConfiguration } from "./configuration-files.ts";
import { uploadConfiguration } from "./configuration-upload.ts";
import type { TerraformCloudOptions } from "./options.ts";
import { planSummary } from "./plan-summary.ts";
import type { RunBoard } from "./run-board.ts";
import { runFindings } from "./run-findings.ts";
import { type FollowedRun, followRun, NO_HOOKS, type WaitHooks } from "./run-follower.ts";
import { applyOutcome, runFailure } from "./run-outcome.ts";
import { isSuccess } from "./run-states.ts";
import { discardStaleRuns, queueRun, readLog, runUrl } from "./runs.ts";
import { TaskRemote } from "./task-remote.ts";
import { withFields } from "./task-logger.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import { entriesHash, tarGzOf } from "./upload-archive.ts";
import { type DesiredVariable, desiredVariables } from "./workspace-inputs.ts";
import { WorkspaceVariables } from "./workspace-variables.ts";
import { findWorkspace, wantedSettings } from "./workspace.ts";

interface Prepared {
  readonly model: TerraformRootModuleModel;
  readonly archive: Uint8Array;
  readonly configHash: string;
  readonly remote: TaskRemote;
}

export interface TerraformCloudDriverDeps {
  /** The driver block's client; the driver spends its budget in the task's turn. */
  readonly client: TfcClient;
  /** The plugin's `driver.tfc` logger. */
  readonly logger: Logger;
  readonly options: TerraformCloudOptions;
  readonly fs: FileSystem;
  /** driver-terraform's renderer: the uploaded files are the ones CTS writes. */
  readonly rootModule: TerraformRootModule;
  /** Aborts at daemon stop: every wait on a run ends (the run stays in HCP Terraform). */
  readonly stopping: AbortSignal;
  /** How often a continuing wait is logged. */
  readonly waitLogIntervalMs: number;
  /** The driver block's view of many runs at once. */
  readonly board?: RunBoard;
}

export class TerraformCloudDriver implements Driver {
  readonly #task: TaskConfig;
  readonly #ctx: DriverContext;
  readonly #deps: TerraformCloudDriverDeps;
  readonly #client: TfcClient;
  readonly #logger: Logger;
  readonly #hooks: WaitHooks;
  #prepared: Prepared | undefined;
  #inputs: TaskInputs = { services: {} };
  /**
   * True until the first apply after init has asked the workspace whether its current run applied
   * these inputs already (a restart, or a new HA leader). Later calls are the engine's: it calls
   * apply only when the inputs changed or a run is forced (`?run=now`), and both need a run.
   */
  #checkWorkspace = true;
  /** A run of ours may wait for a person in the workspace: look for it before queueing another. */
  #mayHoldStaleRun = false;

  constructor(task: TaskConfig, ctx: DriverContext, deps: TerraformCloudDriverDeps) {
    this.#task = task;
    this.#ctx = ctx;
    this.#deps = deps;
    this.#client = deps.client.forOwner(task.name);
    this.#logger = withFields(deps.logger, { task_name: task.name });
    this.#hooks = {
      waiting: ctx.waiting ?? NO_HOOKS.waiting,
      superseded: ctx.newerRunQueued ?? NO_HOOKS.superseded,
    };
  }

  async init(signal: AbortSignal): Promise<void> {
    const { options, fs, rootModule } = this.#deps;
    const client = this.#client;
    const { model, entries } = await taskConfiguration(rootModule, {
      task: this.#task, inputs: this.#ctx.inputs, providers: this.#ctx.providers,
      requiredProviders: options.requiredProviders,
    }, fs);
    const archive = await tarGzOf(entries);
    // What CTS checks when a task starts, read only: the workspace may be used, the agent pool exists.
    const found = await findWorkspace(client, options, this.#task, signal);
    await wantedSettings(client, options, this.#task, this.#logger, signal);
    this.#mayHoldStaleRun = found?.attributes["auto-apply"] === false;
    // CTS's line at a task's start (its HCP Terraform driver shares the Terraform driver's handlers:
    // post-apply hooks such as a PAN-OS commit, which runs in HCP Terraform cannot have).
    (this.#logger.named?.("driver.terraform") ?? this.#logger).info("retrieved 0 Terraform handlers for task", {});
    const remote = new TaskRemote({ client, options, task: this.#task, logger: this.#logger, archive }, found ?? null);
    this.#prepared = { model, archive, configHash: await entriesHash(entries), remote };
  }

  #ready(step: string): Prepared {
    if (!this.#prepared) throw new CtsError("CTS_ERR_DRIVER", `Cannot ${step} task "${this.#task.name}": the driver is not initialised`);
    return this.#prepared;
  }

  render(inputs: TaskInputs, _signal: AbortSignal): Promise<void> {
    this.#inputs = inputs;
    return Promise.resolve();
  }

  #desired(prepared: Prepared): DesiredVariable[] {
    return desiredVariables(this.#deps.rootModule, prepared.model, this.#inputs, this.#ctx.providers);
  }

  /** True when the workspace's current run applied exactly these inputs (after a restart or failover). */
  async #alreadyApplied(wsId: string, hash: string, signal: AbortSignal): Promise<boolean> {
    const client = this.#client;
    const doc = await client.api(`read the workspace of task "${this.#task.name}"`, "GET", `/workspaces/${wsId}`, undefined, { signal });
    const ws = doc!.data as Resource;
    if (ws.attributes["auto-apply"] === false) this.#mayHoldStaleRun = true;
    const current = ws.relationships?.["current-run"]?.data;
    if (!current || Array.isArray(current)) return false;
    const run = (await client.api(`read run ${current.id}`, "GET", `/runs/${current.id}`, undefined, { allow404: true, signal }))?.data as Resource | undefined;
    return run !== undefined && isSuccess(String(run.attributes.status)) && String(run.attributes.message ?? "").includes(hash);
  }

  /**
   * Reports the run's URL for the task's event, its resource counts, resources and phase times, and
   * tells its plan and apply logs to `observer`; nothing when no run was needed.
   */
  apply(signal: AbortSignal, observer?: RunObserver): Promise<ApplyResult | undefined> {
    return this.#run(false, signal, observer);
  }

  /** The run's logs, resources and times for its record; a failure to read them is only logged. */
  async #findings(run: FollowedRun, signal: AbortSignal, observer?: RunObserver): Promise<RunFindings> {
    try {
      return await runFindings(this.#client, run, signal, observer);
    } catch (error) {
      this.#logger.warn("cannot read the run's logs and plan for the run history", { run_id: run.id, error: errorMessage(error) });
      return {};
    }
  }

  /** Reports the destroy run's URL and how many resources it destroyed. */
  async destroy(signal: AbortSignal): Promise<DestroyResult> {
    const done = await this.#run(true, signal);
    if (done?.unapplied) throw new CtsError("CTS_ERR_DRIVER", `Cannot destroy task "${this.#task.name}": ${done.unapplied}`);
    return { ...(done?.url ? { url: done.url } : {}), ...(done?.summary ? { summary: done.summary } : {}) };
  }

  /** The workspace and configuration the task's runs use, set up if this is the first call. */
  async #planOnly(step: string, signal: AbortSignal): Promise<PlanOnlyContext> {
    const prepared = this.#ready(step);
    const { ws, configurationVersionId } = await prepared.remote.ready(signal);
    return {
      client: this.#client, ws, configurationVersionId, taskName: this.#task.name, logger: this.#logger,
      logEveryMs: this.#deps.waitLogIntervalMs, signal: AbortSignal.any([signal, this.#deps.stopping]),
    };
  }

  /** Plan-only runs with the workspace's variables: what the task last applied. */
  async checkDrift(signal: AbortSignal): Promise<DriftReport> {
    return checkDriftRuns(await this.#planOnly("check for drift", signal));
  }

  async planDestroy(signal: AbortSignal): Promise<InspectPlan> {
    return planDestroyRun(await this.#planOnly("plan the destroy of", signal));
  }

  async resources(signal: AbortSignal): Promise<readonly string[] | undefined> {
    return workspaceResources(await this.#planOnly("list the resources of", signal));
  }

  /** The engine never cuts an apply short (its signal does not abort); a stop ends the wait on the run. */
  async #run(isDestroy: boolean, given: AbortSignal, observer?: RunObserver): Promise<ApplyResult | undefined> {
    const prepared = this.#ready(isDestroy ? "destroy" : "apply");
    const client = this.#client;
    const logger = this.#logger;
    const signal = AbortSignal.any([given, this.#deps.stopping]);
    const desired = this.#desired(prepared);
    const hash = await sha256Hex(`${prepared.configHash}\n${JSON.stringify(desired)}`);
    return await prepared.remote.use(signal, async ({ ws, configurationVersionId, variables }) => {
      await variables.sync(desired, signal);
      if (!isDestroy && this.#checkWorkspace) {
        this.#checkWorkspace = false;
        if (await this.#alreadyApplied(ws.id, hash, signal)) {
          logger.info("inputs unchanged since the last applied run, no run queued", { workspace_name: ws.name });
          return undefined;
        }
      }
      if (this.#mayHoldStaleRun || !ws.autoApply) await discardStaleRuns(client, ws, logger, signal);
      this.#mayHoldStaleRun = false;
      const queued = await queueRun(client, ws, {
        message: `${isDestroy ? "Destroy" : "Run"} queued by cts-runtime for task "${this.#task.name}" (inputs sha256:${hash})`,
        configurationVersionId,
        isDestroy,
      }, signal);
      const url = runUrl(ws, queued.id);
      logger.info("queued run", { workspace_name: ws.name, run_id: queued.id, url });
      const followed = await followRun({
        client, ws, runId: queued.id, url, logger, signal, hooks: this.#hooks, logEveryMs: this.#deps.waitLogIntervalMs,
        ...(this.#deps.board ? { board: this.#deps.board } : {}),
      });
      // Told before the outcome is judged, so a failed apply's record still has its plan and logs.
      const findings = await this.#findings(followed.run, signal, observer);
      observer?.findings?.(findings);
      return { ...await applyOutcome({ client, ws, task: this.#task.name, url, logger, signal }, followed), ...findings };
    });
  }

  async plan(signal: AbortSignal, observer?: RunObserver): Promise<InspectPlan> {
    const prepared = this.#ready("inspect");
    const client = this.#client;
    const logger = this.#logger;
    const both = AbortSignal.any([signal, this.#deps.stopping]);
    const desired = this.#desired(prepared);
    const ws = await prepared.remote.forInspection(both);
    // Provider settings and task_env are credentials: they live only in sensitive workspace
    // variables, which an inspection does not write. The plan uses what the workspace holds.
    const sensitive = desired.filter((variable) => variable.sensitive);
    const stale = sensitive.length === 0 ? [] : await new WorkspaceVariables(client, ws, logger).differing(sensitive, both);
    if (stale.length > 0) {
      logger.warn("inspect does not write workspace variables: the plan uses the workspace's own values of these sensitive variables", {
        workspace_name: ws.name, variables: stale.join(","),
      });
    }
    const cv = await uploadConfiguration(client, ws, prepared.archive, true, logger, both);
    const variables = desired.filter((variable) => !variable.sensitive).map(({ key, value }) => ({ key, value }));
    const queued = await queueRun(client, ws, {
      message: `Speculative plan by cts-runtime for task "${this.#task.name}"`,
      configurationVersionId: cv, planOnly: true, variables,
    }, both);
    const url = runUrl(ws, queued.id);
    logger.info("queued speculative plan", { workspace_name: ws.name, run_id: queued.id, url });
    const { run } = await followRun({ client, ws, runId: queued.id, url, logger, signal: both, hooks: NO_HOOKS, logEveryMs: this.#deps.waitLogIntervalMs });
    // Read before a failure is thrown, so a failed inspection's record has its log too.
    const findings = await this.#findings(run, both, observer);
    const planRel = run.relationships?.plan?.data;
    if (String(run.attributes.status) !== "planned_and_finished" || !planRel || Array.isArray(planRel)) {
      throw await runFailure({ client, ws, task: this.#task.name, url, logger, signal: both }, run, "inspect");
    }
    const plan = (await client.api(`read the plan of run ${run.id}`, "GET", `/plans/${planRel.id}`, undefined, { signal: both }))!.data as Resource;
    const a = plan.attributes;
    const log = typeof a["log-read-url"] === "string" ? await readLog(client, a["log-read-url"], both) : "";
    const counts = {
      add: Number(a["resource-additions"] ?? 0), change: Number(a["resource-changes"] ?? 0), destroy: Number(a["resource-destructions"] ?? 0),
    };
    return { changesPresent: a["has-changes"] === true, plan: planSummary(counts, log, url), url, ...findings };
  }

  version(): Promise<string> {
    return Promise.resolve(`HCP Terraform (${this.#deps.options.hostname})`);
  }
}
