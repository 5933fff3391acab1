/**
 * @module One task's Terraform driver: writes the root module, runs init/workspace/validate once
 * per (re)initialisation, renders terraform.tfvars per run, and plans or applies.
 */
import {
  type ApplyResult, CtsError, type DestroyResult, type Driver, type DriverContext, type DriftReport, errorMessage, type FileSystem,
  type InspectPlan, type ProcessRunner, type SecretMasker, type TaskConfig, type TaskInputs,
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
  applyArgs, destroyArgs, initArgs, workspaceDeleteArgs, isMissingWorkspaceError, isWorkspaceExistsError, planArgs, terraformEnvironment,
  validateArgs, workspaceNewArgs, workspaceSelectArgs,
} from "./terraform-commands.ts";
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

  async plan(signal: AbortSignal): Promise<InspectPlan> {
    const cli = this.#ready("plan");
    const args = planArgs(this.#deps.options.lock_timeout);
    const what = `plan task "${this.#task.name}"`;
    const result = await cli.runLocking(what, args, signal);
    if (result.exitCode !== 0 && result.exitCode !== 2) throw cli.failure(what, args, result);
    return { changesPresent: result.exitCode === 2, plan: result.stdout };
  }

  /** Reports the resource counts terraform printed, for the run history. */
  async apply(signal: AbortSignal): Promise<ApplyResult> {
    const result = await this.#ready("apply").check(`apply task "${this.#task.name}"`, applyArgs(this.#deps.options.lock_timeout), signal);
    const summary = applySummary(result.stdout);
    return summary ? { summary } : {};
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
