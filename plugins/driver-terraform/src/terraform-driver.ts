/**
 * @module One task's Terraform driver: writes the root module, runs init/workspace/validate once
 * per (re)initialisation, renders terraform.tfvars per run, and plans or applies.
 */
import {
  type ApplyResult, CtsError, type DestroyResult, type Driver, type DriverContext, type DriftReport, errorMessage, type FileSystem,
  type InspectPlan, type ProcessRunner, type RunObserver, type SecretMasker, type TaskConfig, type TaskInputs,
} from "../../../core/plugin-api/mod.ts";
import { applySummary, destroySummary } from "./apply-summary.ts";
import { checkDrift, type DriftPlanContext, planDestroy, stateResources } from "./drift-plans.ts";
import { consulEnvironment } from "./backend.ts";
import { buildRootModuleModel, renderRootModuleFiles } from "./build-root-module.ts";
import type { TerraformOptions } from "./options.ts";
import { renderTfvars } from "./render-tfvars.ts";
import { sensitiveProviderVariables } from "./render-providers-tfvars.ts";
import { tfvarsTemplates } from "./tfvars-templates.ts";
import { isLocalModuleSource, type RootModuleModel } from "./root-module-model.ts";
import type { TerraformBinary, TerraformVersion } from "./terraform-binary.ts";
import { TerraformCli } from "./terraform-cli.ts";
import {
  applyArgs, destroyArgs, initArgs, workspaceDeleteArgs, isMissingWorkspaceError, isWorkspaceExistsError, PLAN_FILE, planArgs,
  terraformEnvironment, validateArgs, withoutSavedPlanNote, workspaceNewArgs, workspaceSelectArgs,
} from "./terraform-commands.ts";
import { observed, readModuleOutputs, savePlan, type SavedPlanOptions } from "./saved-plan.ts";
import { checkValidateOutput } from "./validate-result.ts";

/** CTS's permissions: the directory 0750, files 0640 (they may hold provider settings). */
const DIR_MODE = 0o750;
const FILE_MODE = 0o640;

export interface TerraformDriverDeps {
  readonly processes: ProcessRunner;
  readonly fs: FileSystem;
  readonly options: TerraformOptions;
  /** The binary and its version, located once per daemon. */
  readonly binary: (signal: AbortSignal) => Promise<TerraformBinary & TerraformVersion>;
  /** Aborted when the daemon stops: a wait for a held state lock ends then. */
  readonly stopping?: AbortSignal;
  /** The daemon's secrets, masked in Terraform's output as it is captured. @default none */
  readonly secrets?: Pick<SecretMasker, "mask">;
}

/** Plans and applies at most this many times while the saved plan keeps going stale. */
const STALE_PLAN_ATTEMPTS = 3;

/** Terraform refused a saved plan because the state changed after it was made. */
function isStalePlanError(error: unknown): boolean {
  return errorMessage(error).includes("Saved plan is stale");
}

export class TerraformDriver implements Driver {
  readonly #task: TaskConfig;
  readonly #ctx: DriverContext;
  readonly #deps: TerraformDriverDeps;
  #model: RootModuleModel | undefined;
  #cli: TerraformCli | undefined;
  /** What `terraform validate` found wrong at init, thrown by the first plan or apply. */
  #invalid: unknown;
  /** True when this driver's init created the task's workspace (discard deletes it again). */
  #createdWorkspace = false;

  constructor(task: TaskConfig, ctx: DriverContext, deps: TerraformDriverDeps) {
    this.#task = task;
    this.#ctx = ctx;
    this.#deps = deps;
  }

  #path(file: string): string {
    return this.#deps.fs.resolve(this.#ctx.workingDir, file);
  }

  async init(signal: AbortSignal): Promise<void> {
    const { fs, options } = this.#deps;
    const task = this.#task;
    const model = await buildRootModuleModel({
      task, inputs: this.#ctx.inputs, templates: this.#ctx.templates, providers: this.#ctx.providers, options, consul: this.#ctx.consul,
      resolvePath: (p) => fs.resolve(p),
    });
    if (isLocalModuleSource(model.moduleSource) && !(await fs.isDirectory(model.moduleSource))) {
      throw new CtsError("CTS_ERR_DRIVER", `Cannot initialise task "${task.name}": module path ${model.moduleSource} does not exist or is not a directory`);
    }
    const binary = await this.#deps.binary(signal);
    await fs.mkdir(this.#ctx.workingDir, { mode: DIR_MODE });
    for (const [file, content] of Object.entries(renderRootModuleFiles(model))) {
      if (content === undefined) await fs.remove(this.#path(file));
      else await fs.writeText(this.#path(file), content, { mode: FILE_MODE });
    }
    // Until the first render, an empty services map keeps validate and plan non-interactive.
    if (!(await fs.exists(this.#path("terraform.tfvars")))) {
      const empty = renderTfvars(task.name, task.description, { services: {} }, model.templates);
      await fs.writeText(this.#path("terraform.tfvars"), empty, { mode: FILE_MODE });
    }
    this.#model = model;
    const cli = new TerraformCli({
      binary,
      processes: this.#deps.processes,
      workingDir: this.#ctx.workingDir,
      env: terraformEnvironment({
        providerEnv: this.#ctx.providers.filter((p) => task.providers.includes(p.id)).map((p) => p.task_env),
        consulEnv: model.backend?.type === "consul" ? consulEnvironment(this.#ctx.consul) : undefined,
        logPath: options.persist_log ? this.#path("terraform.log") : undefined,
        sensitiveVariables: sensitiveProviderVariables(model),
      }),
      logger: this.#ctx.logger,
      log: options.log,
      lockTimeout: options.lock_timeout,
      lockTimeoutMs: options.lockTimeoutMs,
      ...(this.#deps.stopping ? { stopping: this.#deps.stopping } : {}),
      ...(this.#deps.secrets ? { secrets: this.#deps.secrets } : {}),
    });
    await this.#initWorkspace(cli, signal);
    const validated = await cli.run(validateArgs(), signal);
    // CTS validates when it first applies, once Consul answered the task's queries: an invalid module
    // fails the first plan or apply, so a query Consul refuses is still the error a user sees first.
    this.#invalid = undefined;
    try {
      const { warnings } = checkValidateOutput(task.name, model.moduleSource, validated.stdout, validated.stderr);
      for (const warning of warnings) this.#ctx.logger.warn("terraform validate warning", { warning });
    } catch (error) {
      this.#invalid = error;
    }
    this.#cli = cli;
  }

  async #initWorkspace(cli: TerraformCli, signal: AbortSignal): Promise<void> {
    const name = this.#task.name;
    const what = `initialise task "${name}"`;
    const timeout = this.#deps.options.lock_timeout;
    // init loads the selected workspace's state, which takes the lock with the Consul backend.
    let init = await cli.runLocking(what, initArgs(timeout), signal);
    if (init.exitCode !== 0 && isMissingWorkspaceError(init.stderr + init.stdout)) {
      // The workspace recorded in .terraform/ is gone from the backend (state wiped): recreate it.
      this.#ctx.logger.info("workspace missing in the backend, creating it", { workspace: name });
      await cli.runLocking(what, workspaceNewArgs(name, timeout), signal);
      init = await cli.runLocking(what, initArgs(timeout), signal);
    }
    if (init.exitCode !== 0) throw cli.failure(what, initArgs(timeout), init);
    const created = await cli.runLocking(`${what}: creating workspace "${name}"`, workspaceNewArgs(name, timeout), signal);
    if (created.exitCode === 0) this.#createdWorkspace = true;
    if (created.exitCode !== 0 && !isWorkspaceExistsError(created.stderr + created.stdout)) {
      throw cli.failure(`${what}: creating workspace "${name}"`, workspaceNewArgs(name, timeout), created);
    }
    await cli.check(`${what}: selecting workspace "${name}"`, workspaceSelectArgs(name), signal);
  }

  #ready(step: string): TerraformCli {
    if (this.#invalid !== undefined && step !== "destroy") throw this.#invalid;
    if (!this.#cli || !this.#model) {
      throw new CtsError("CTS_ERR_DRIVER", `Cannot ${step} task "${this.#task.name}": the driver is not initialised`);
    }
    return this.#cli;
  }

  async render(inputs: TaskInputs, _signal: AbortSignal): Promise<void> {
    const task = this.#task;
    const templates = this.#model?.templates ?? tfvarsTemplates(this.#ctx.inputs, this.#ctx.templates);
    const content = renderTfvars(task.name, task.description, inputs, templates);
    await this.#deps.fs.writeText(this.#path("terraform.tfvars"), content, { mode: FILE_MODE });
  }

  #planOptions(cli: TerraformCli): SavedPlanOptions {
    return {
      cli, logger: this.#ctx.logger, file: this.#path(PLAN_FILE), lockTimeout: this.#deps.options.lock_timeout, moduleName: this.#task.name,
    };
  }

  /** CTS's plan (inspect), saved so its JSON gives the resources; the text without the saved-plan note. */
  async plan(signal: AbortSignal, observer?: RunObserver): Promise<InspectPlan> {
    const options = this.#planOptions(this.#ready("plan"));
    try {
      const planned = await savePlan(`plan task "${this.#task.name}"`, options, signal, observer);
      const findings = await planned.findings;
      return {
        changesPresent: planned.changesPresent,
        plan: withoutSavedPlanNote(planned.result.stdout),
        ...(findings ? { resources: findings.resources } : {}),
        phases_ms: { plan: planned.ms },
      };
    } finally {
      await this.#deps.fs.remove(options.file);
    }
  }

  /**
   * Plans to a file and applies exactly that plan (what CTS's single apply does, in two steps), then
   * reads the module's outputs. Reports the resource counts and resources, outputs and phase times.
   */
  async apply(signal: AbortSignal, observer?: RunObserver): Promise<ApplyResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#planAndApply(signal, observer);
      } catch (error) {
        // CTS's one `terraform apply` holds the state lock from plan to apply; two steps release it
        // between them, so another run on the same state (a second daemon, a person) can make the
        // saved plan stale. Planning again is what the single apply would have done after the lock.
        if (attempt >= STALE_PLAN_ATTEMPTS || !isStalePlanError(error)) throw error;
        this.#ctx.logger.info("the state changed after the plan (another run on the same state): planning again", { attempt });
        observer?.output("apply", `\n--- the saved plan is stale: planning again (${attempt + 1} of ${STALE_PLAN_ATTEMPTS}) ---\n`);
      }
    }
  }

  async #planAndApply(signal: AbortSignal, observer?: RunObserver): Promise<ApplyResult> {
    const cli = this.#ready("apply");
    const what = `apply task "${this.#task.name}"`;
    const options = this.#planOptions(cli);
    let planned: Awaited<ReturnType<typeof savePlan>> | undefined;
    try {
      planned = await savePlan(what, options, signal, observer);
      const started = Date.now();
      // The plan's JSON is read while the apply runs: both only read the plan file.
      const result = await cli.check(what, applyArgs(options.lockTimeout, options.file), signal, observed(observer, "apply"));
      const applyMs = Date.now() - started;
      const summary = applySummary(result.stdout);
      const findings = await planned.findings;
      const outputs = findings ? await readModuleOutputs(options, findings, signal) : undefined;
      return {
        ...(summary ? { summary } : {}),
        ...(findings ? { resources: findings.resources } : {}),
        ...(outputs ? { outputs } : {}),
        phases_ms: { plan: planned.ms, apply: applyMs },
      };
    } finally {
      // Never removed under a show that still reads it.
      await planned?.findings;
      await this.#deps.fs.remove(options.file);
    }
  }

  /** Reports how many resources terraform destroyed, for the run history. */
  async destroy(signal: AbortSignal): Promise<DestroyResult> {
    const result = await this.#ready("destroy").check(`destroy task "${this.#task.name}"`, destroyArgs(this.#deps.options.lock_timeout), signal);
    const summary = destroySummary(result.stdout);
    return summary ? { summary } : {};
  }

  #plans(step: string): DriftPlanContext {
    return {
      cli: this.#ready(step), fs: this.#deps.fs, taskName: this.#task.name, lockTimeout: this.#deps.options.lock_timeout,
      planFile: (name) => this.#path(name),
    };
  }

  planDestroy(signal: AbortSignal): Promise<InspectPlan> {
    return planDestroy(this.#plans("destroy"), signal);
  }

  resources(signal: AbortSignal): Promise<readonly string[] | undefined> {
    return stateResources(this.#plans("destroy"), signal);
  }

  checkDrift(signal: AbortSignal): Promise<DriftReport> {
    return checkDrift(this.#plans("check for drift"), signal);
  }

  check(): void {
    if (this.#invalid !== undefined) throw this.#invalid;
  }

  /** Deletes the workspace init created, unless it holds resources now (Terraform refuses then). */
  async discard(signal: AbortSignal): Promise<void> {
    const cli = this.#cli;
    if (!cli || !this.#createdWorkspace) return;
    const name = this.#task.name;
    try {
      await cli.check(`discard task "${name}": selecting workspace "default"`, workspaceSelectArgs("default"), signal);
      await cli.check(`discard task "${name}": deleting workspace "${name}"`, workspaceDeleteArgs(name, this.#deps.options.lock_timeout), signal);
      this.#createdWorkspace = false;
    } catch (error) {
      this.#ctx.logger.warn("workspace of a task that was not created is kept", { workspace: name, error: errorMessage(error) });
    }
  }

  async version(): Promise<string> {
    const binary = await this.#deps.binary(new AbortController().signal);
    return `${binary.flavour} ${binary.version}`;
  }
}
