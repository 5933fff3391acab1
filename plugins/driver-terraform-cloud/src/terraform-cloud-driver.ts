/**
 * @module One task's HCP Terraform driver. init: the workspace and an upload of the root module;
 * apply: variables written when changed, one run, followed to the end; plan (inspect): a
 * speculative run whose inputs travel as run variables, so the workspace is left untouched.
 * A run is queued only when the rendered inputs differ from the last applied run: its message
 * carries a hash of them, so a restarted daemon or a new HA leader queues nothing when nothing changed.
 */
import {
  type ApplyResult, CtsError, type Driver, type DriverContext, errorMessage, type FileSystem, type InspectPlan, type Logger, type RunFindings,
  type RunObserver, type TaskConfig, type TaskInputs, type TerraformRootModule, type TerraformRootModuleModel,
} from "../../../core/plugin-api/mod.ts";
import { taskConfiguration } from "./configuration-files.ts";
import { uploadConfiguration } from "./configuration-upload.ts";
import type { TerraformCloudOptions } from "./options.ts";
import { planSummary } from "./plan-summary.ts";
import { runResourceCounts } from "./run-counts.ts";
import { runFindings } from "./run-findings.ts";
import { discardStaleRuns, failureLog, type FollowedRun, followRun, queueRun, readLog, runUrl, SUCCESS } from "./runs.ts";
import { sha256Hex, tarGzOf } from "./tar-gz.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import { desiredVariables } from "./workspace-inputs.ts";
import { withFields } from "./task-logger.ts";
import { WorkspaceVariables } from "./workspace-variables.ts";
import { ensureWorkspace, type WorkspaceInfo } from "./workspace.ts";

interface Prepared {
  readonly model: TerraformRootModuleModel;
  readonly ws: WorkspaceInfo;
  readonly archive: Uint8Array;
  readonly configHash: string;
  readonly configurationVersionId: string;
  readonly variables: WorkspaceVariables;
}

export interface TerraformCloudDriverDeps {
  readonly client: TfcClient;
  /** The plugin's `driver.tfc` logger. */
  readonly logger: Logger;
  readonly options: TerraformCloudOptions;
  readonly fs: FileSystem;
  /** driver-terraform's renderer: the uploaded files are the ones CTS writes. */
  readonly rootModule: TerraformRootModule;
}

export class TerraformCloudDriver implements Driver {
  readonly #task: TaskConfig;
  readonly #ctx: DriverContext;
  readonly #deps: TerraformCloudDriverDeps;
  readonly #logger: Logger;
  #prepared: Prepared | undefined;
  #inputs: TaskInputs = { services: {} };
  /**
   * True until the first apply after init has asked the workspace whether its current run applied
   * these inputs already (a restart, or a new HA leader). Later calls are the engine's: it calls
   * apply only when the inputs changed or a run is forced (`?run=now`), and both need a run.
   */
  #checkWorkspace = true;
  #manualApply = false;

  constructor(task: TaskConfig, ctx: DriverContext, deps: TerraformCloudDriverDeps) {
    this.#task = task;
    this.#ctx = ctx;
    this.#deps = deps;
    this.#logger = withFields(deps.logger, { task_name: task.name });
  }

  async init(signal: AbortSignal): Promise<void> {
    const { client, options, fs, rootModule } = this.#deps;
    const { model, files } = await taskConfiguration(rootModule, {
      task: this.#task, inputs: this.#ctx.inputs, providers: this.#ctx.providers,
      requiredProviders: options.requiredProviders,
    }, fs);
    const configHash = await sha256Hex(JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))));
    const ws = await ensureWorkspace(client, options, this.#task, this.#logger, signal);
    this.#manualApply = !ws.autoApply;
    const archive = await tarGzOf(files);
    const previous = this.#prepared;
    const configurationVersionId = previous && previous.ws.id === ws.id && previous.configHash === configHash
      ? previous.configurationVersionId
      : await uploadConfiguration(client, ws, archive, false, this.#logger, signal);
    this.#prepared = {
      model, ws, archive, configHash, configurationVersionId,
      variables: previous?.ws.id === ws.id ? previous.variables : new WorkspaceVariables(client, ws, this.#logger),
    };
  }

  #ready(step: string): Prepared {
    if (!this.#prepared) throw new CtsError("CTS_ERR_DRIVER", `Cannot ${step} task "${this.#task.name}": the driver is not initialised`);
    return this.#prepared;
  }

  render(inputs: TaskInputs, _signal: AbortSignal): Promise<void> {
    this.#inputs = inputs;
    return Promise.resolve();
  }

  async #inputsHash(prepared: Prepared): Promise<string> {
    return await sha256Hex(`${prepared.configHash}\n${JSON.stringify(desiredVariables(this.#deps.rootModule, prepared.model, this.#inputs))}`);
  }

  /** True when the workspace's current run applied exactly these inputs (after a restart or failover). */
  async #alreadyApplied(prepared: Prepared, hash: string, signal: AbortSignal): Promise<boolean> {
    const { client } = this.#deps;
    const doc = await client.api(`read workspace "${prepared.ws.name}"`, "GET", `/workspaces/${prepared.ws.id}`, undefined, { signal });
    const ws = doc!.data as Resource;
    this.#manualApply = ws.attributes["auto-apply"] === false;
    const current = ws.relationships?.["current-run"]?.data;
    if (!current || Array.isArray(current)) return false;
    const run = (await client.api(`read run ${current.id}`, "GET", `/runs/${current.id}`, undefined, { allow404: true, signal }))?.data as Resource | undefined;
    return run !== undefined && SUCCESS.has(String(run.attributes.status)) && String(run.attributes.message ?? "").includes(hash);
  }

  /**
   * Reports the run's URL for the task's event, its resource counts, resources and phase times, and
   * tells its plan and apply logs to `observer`; nothing when no run was needed.
   */
  async apply(signal: AbortSignal, observer?: RunObserver): Promise<ApplyResult | undefined> {
    const done = await this.#run(signal, false, observer);
    if (!done) return undefined;
    const summary = SUCCESS.has(String(done.run.attributes.status)) ? runResourceCounts(done.run) : undefined;
    return { url: done.url, ...(summary ? { summary } : {}), ...done.findings };
  }

  /** The run's logs, resources and times for its record; a failure to read them is only logged. */
  async #findings(run: FollowedRun, signal: AbortSignal, observer?: RunObserver): Promise<RunFindings> {
    try {
      return await runFindings(this.#deps.client, run, signal, observer);
    } catch (error) {
      this.#logger.warn("cannot read the run's logs and plan for the run history", { run_id: run.id, error: errorMessage(error) });
      return {};
    }
  }

  async destroy(signal: AbortSignal): Promise<void> {
    await this.#run(signal, true);
  }

  async #run(signal: AbortSignal, isDestroy: boolean, observer?: RunObserver): Promise<{ url: string; run: FollowedRun; findings: RunFindings } | undefined> {
    const prepared = this.#ready(isDestroy ? "destroy" : "apply");
    const { client } = this.#deps;
    const logger = this.#logger;
    const hash = await this.#inputsHash(prepared);
    await prepared.variables.sync(desiredVariables(this.#deps.rootModule, prepared.model, this.#inputs), signal);
    if (!isDestroy) {
      const check = this.#checkWorkspace;
      this.#checkWorkspace = false;
      if (check && await this.#alreadyApplied(prepared, hash, signal)) {
        logger.info("inputs unchanged since the last applied run, no run queued", { workspace: prepared.ws.name });
        return undefined;
      }
    }
    if (this.#manualApply) await discardStaleRuns(client, prepared.ws, logger, signal);
    const queued = await queueRun(client, prepared.ws, {
      message: `${isDestroy ? "Destroy" : "Run"} queued by cts-runtime for task "${this.#task.name}" (inputs sha256:${hash})`,
      configurationVersionId: prepared.configurationVersionId,
      isDestroy,
    }, signal);
    const url = runUrl(prepared.ws, queued.id);
    logger.info("queued run", { workspace: prepared.ws.name, run_id: queued.id, url });
    const run = await followRun(client, prepared.ws, queued.id, signal);
    const status = String(run.attributes.status);
    const findings = await this.#findings(run, signal, observer);
    if (SUCCESS.has(status)) {
      logger.info("run completed", { workspace: prepared.ws.name, run_id: run.id, status, url });
      return { url, run, findings };
    }
    if (run.attributes["auto-apply"] === false && !["errored", "discarded", "canceled", "force_canceled"].includes(status)) {
      // CTS leaves a manual-apply workspace's run for a person to confirm.
      this.#manualApply = true;
      logger.warn("run is waiting for approval in HCP Terraform", { workspace: prepared.ws.name, run_id: run.id, status, url });
      return { url, run, findings };
    }
    const tail = await failureLog(client, run, signal).catch(() => "");
    throw new CtsError("CTS_ERR_DRIVER", `Cannot apply task "${this.#task.name}": run ${run.id} ended "${status}" (${url})${tail ? `: ${tail}` : ""}`);
  }

  async plan(signal: AbortSignal, observer?: RunObserver): Promise<InspectPlan> {
    const prepared = this.#ready("inspect");
    const { client } = this.#deps;
    const logger = this.#logger;
    const desired = desiredVariables(this.#deps.rootModule, prepared.model, this.#inputs);
    // Provider settings are configuration, often credentials: they go to (sensitive) workspace
    // variables, never into a run's visible variables. The Consul inputs travel with the run.
    await prepared.variables.sync(desired.filter((variable) => variable.sensitive), signal, false);
    const cv = await uploadConfiguration(client, prepared.ws, prepared.archive, true, logger, signal);
    const variables = desired.filter((variable) => !variable.sensitive).map(({ key, value }) => ({ key, value }));
    const queued = await queueRun(client, prepared.ws, {
      message: `Speculative plan by cts-runtime for task "${this.#task.name}"`,
      configurationVersionId: cv, planOnly: true, variables,
    }, signal);
    const url = runUrl(prepared.ws, queued.id);
    logger.info("queued speculative plan", { workspace: prepared.ws.name, run_id: queued.id, url });
    const run = await followRun(client, prepared.ws, queued.id, signal);
    // Read before a failure is thrown, so a failed inspection's record has its log too.
    const findings = await this.#findings(run, signal, observer);
    const planRel = run.relationships?.plan?.data;
    if (String(run.attributes.status) !== "planned_and_finished" || !planRel || Array.isArray(planRel)) {
      const tail = await failureLog(client, run, signal).catch(() => "");
      throw new CtsError("CTS_ERR_DRIVER", `Cannot inspect task "${this.#task.name}": run ${run.id} ended "${run.attributes.status}" (${url})${tail ? `: ${tail}` : ""}`);
    }
    const plan = (await client.api(`read the plan of run ${run.id}`, "GET", `/plans/${planRel.id}`, undefined, { signal }))!.data as Resource;
    const a = plan.attributes;
    const log = typeof a["log-read-url"] === "string" ? await readLog(client, a["log-read-url"], signal) : "";
    const counts = {
      add: Number(a["resource-additions"] ?? 0), change: Number(a["resource-changes"] ?? 0), destroy: Number(a["resource-destructions"] ?? 0),
    };
    return { changesPresent: a["has-changes"] === true, plan: planSummary(counts, log, url), url, ...findings };
  }

  version(): Promise<string> {
    return Promise.resolve(`HCP Terraform (${this.#deps.options.hostname})`);
  }
}
