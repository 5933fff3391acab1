/**
 * @module The driver contract: how a task is carried out (Terraform, OpenTofu, TFC, ...).
 *
 * One method per step of CTS's Go driver interface; `AbortSignal` replaces `context.Context`.
 */
import type { ConsulConfig, CtsConfig, DriverConfig, DriverOptions, ProviderConfig, TaskConfig } from "./config.ts";
import type { BlockProblem, JsonSchema } from "./json-schema.ts";
import type { Named } from "./registry.ts";
import type { Logger } from "./services/logger.ts";
import type { TaskInputs, TaskInputSpec, TaskInputTemplate } from "./task-inputs.ts";
import type { PlanSummary, ResourceChange, RunOutput, RunPhase } from "./services/run-history.ts";

/**
 * What a driver may tell while it plans or applies, for the run's record
 * and its live view. Drivers that ignore it still work; the engine masks and bounds what it hears.
 */
export interface RunObserver {
  /** Output of `phase` as it comes (any chunking; colour codes are removed by the engine). */
  output(phase: RunPhase, chunk: string): void;
  /**
   * What the run found so far (the plan's resources, its time), told as soon as known, so a run
   * whose apply then fails still records what it planned. An apply's result adds to it.
   */
  findings?(findings: RunFindings): void;
}

/** What a plan or an apply touched, when the driver can tell. */
export interface RunFindings {
  /** The resources the plan touches (from Terraform's JSON plan), no-ops left out. */
  readonly resources?: readonly ResourceChange[];
  /** Milliseconds spent in each phase. */
  readonly phases_ms?: Readonly<Partial<Record<RunPhase, number>>>;
}

/** The result of `plan` (CTS "inspect"). */
export interface InspectPlan extends RunFindings {
  readonly changesPresent: boolean;
  /** Human-readable plan text. */
  readonly plan: string;
  /** A URL to the plan, for remote drivers (TFC). */
  readonly url?: string;
}

/** What `apply` may report (a local driver reports nothing). */
export interface ApplyResult extends RunFindings {
  /** Where the run can be seen, e.g. an HCP Terraform run URL; shown in the task's event. */
  readonly url?: string;
  /**
   * Resources added, changed and destroyed by the apply, when the driver
   * can tell; kept in the run's history record.
   */
  readonly summary?: PlanSummary;
  /** The module's outputs after the apply (sensitive ones without value). */
  readonly outputs?: Readonly<Record<string, RunOutput>>;
  /**
   * The run ended without applying, and that is not an error of the task
   * (HCP Terraform: a run that waited for approval made way for newer inputs). The engine records
   * the run as failed with this text and `url`, and does not retry it.
   */
  readonly unapplied?: string;
}

/**
 * What an error a driver's `apply` throws may carry besides its message.
 * The engine puts `url` in the task's failed event, as it does for a success.
 */
export interface DriverRunFailure {
  /** Where the failed run can be seen, e.g. an HCP Terraform run URL. */
  readonly url?: string;
}

/**
 * What `Driver.checkDrift` found, planning with the inputs last applied.
 * `resources` lists what differs: resources changed outside the driver (a refresh-only plan) and
 * resources an apply would change (a normal plan), each by address and action.
 */
export interface DriftReport {
  readonly drifted: boolean;
  readonly resources: readonly ResourceChange[];
  /** Where the plans can be seen (an HCP Terraform run URL). */
  readonly url?: string;
}

/** What `Driver.destroy` may report. */
export interface DestroyResult {
  readonly url?: string;
  /** Resources destroyed (`destroy`), when the driver can tell. */
  readonly summary?: PlanSummary;
}

/** One task's driver instance, created when the task is created and disposed when it is deleted. */
export interface Driver {
  /** Prepares the task's workspace (files, `terraform init`, workspace, validate). Re-run when the task changes. */
  init(signal: AbortSignal): Promise<void>;
  /** Writes the task's inputs where `plan`/`apply` will read them. */
  render(inputs: TaskInputs, signal: AbortSignal): Promise<void>;
  /** Plans without changing anything. `observer`, when given, hears its output. */
  plan(signal: AbortSignal, observer?: RunObserver): Promise<InspectPlan>;
  /** Applies the rendered inputs. `observer`, when given, hears its output as it comes. */
  apply(signal: AbortSignal, observer?: RunObserver): Promise<void | ApplyResult>;
  /**
   * Destroys what the task created, with the rendered inputs (`DELETE /v1/tasks/{name}?destroy=true`;
   * CTS never calls it). May report the run's URL and counts.
   */
  destroy(signal: AbortSignal): Promise<void | DestroyResult>;
  /** Optional: plans the destroy without changing anything (`?destroy=true&run=inspect`). */
  planDestroy?(signal: AbortSignal): Promise<InspectPlan>;
  /**
   * Optional: the addresses of the resources the task still manages (after a failed
   * destroy). Undefined when the driver cannot tell.
   */
  resources?(signal: AbortSignal): Promise<readonly string[] | undefined>;
  /**
   * Optional (drift detection needs it): plans with the rendered inputs, changing
   * nothing, and reports what differs from them. A driver without it has no drift detection.
   */
  checkDrift?(signal: AbortSignal): Promise<DriftReport>;
  /** E.g. `terraform 1.11.4`. */
  version(): Promise<string>;
  dispose?(): Promise<void>;
  /**
   * Optional: throws what `init` found wrong but keeps for the first plan or apply
   * (Terraform: `terraform validate`'s errors). The engine calls it for a task created through the
   * API, which CTS refuses (500) when its module does not validate.
   */
  check?(): void;
  /**
   * Optional: the task is not created after all (a rejected API create, a dry run):
   * undo what `init` made outside the working directory and did not find there before (a Terraform
   * workspace that holds no resources). Never throws. The engine removes a working directory the
   * create made itself.
   */
  discard?(signal: AbortSignal): Promise<void>;
}

export interface DriverContext<O extends object = DriverOptions> {
  /** The `driver "<name>" {}` block, its body checked against the driver's `optionsSchema`. */
  readonly driver: DriverConfig<O>;
  /** The `terraform_provider` blocks this task names, resolved. */
  readonly providers: readonly ProviderConfig[];
  /** Consul connection (for the default backend and `CONSUL_HTTP_*` environment). */
  readonly consul: ConsulConfig;
  /** Absolute path of the task's working directory. */
  readonly workingDir: string;
  /** Task-scoped logger (`driver.<name>` with `task_name`). */
  readonly logger: Logger;
  /**
   * The variables the task's condition and module inputs render, in block order (condition first).
   * `services` may be absent here yet is always rendered, as in CTS (empty when nothing selects services).
   */
  readonly inputs: readonly TaskInputSpec[];
  /**
   * The templates of the task's blocks whose owners give one
   * (`ConditionFactory.template`), in block order, for drivers that write CTS's
   * terraform.tfvars.tmpl. The engine always passes it. @default none
   */
  readonly templates?: readonly TaskInputTemplate[];
  /**
   * A run that waits on something outside the driver (a workspace lock, an
   * approval) says why; the task's status shows it until it is called with undefined or the run ends.
   */
  readonly waiting?: (reason: string | undefined) => void;
  /**
   * True while newer inputs of the task wait for the current run to end. A
   * run waiting for a person may make way for them (CTS discards a run awaiting approval for a newer one).
   */
  readonly newerRunQueued?: () => boolean;
}

/** What `DriverFactory.completeTaskBlocks` makes of a task's driver-owned fields. */
export interface TaskBlocksCompletion {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly deprecations?: readonly BlockProblem[];
}

/**
 * What a driver plugin registers: a named factory. `name` is the `driver "<name>"` label. `O` is the
 * block's body as the kernel hands it over (in `validate`, `verify` and `create`): checked against
 * `optionsSchema` once, nested blocks shaped, defaults applied, frozen. Derive it from the schema
 * with `OptionsOf<typeof schema>` so the schema is the one description of the block.
 * @default untyped fields (`DriverOptions`)
 */
export interface DriverFactory<O extends object = DriverOptions> extends Named {
  /** Validates the `driver "<name>" {}` block body at config load. */
  readonly optionsSchema?: JsonSchema;
  /**
   * Top-level fields of the driver block whose strings may hold CTS templates
   * (`{{ env "X" }}`, `{{ with secret "p" }}`); the driver resolves them. Elsewhere in the block the
   * kernel refuses templates, as CTS does outside terraform_provider blocks.
   */
  readonly templateFields?: readonly string[];
  /**
   * Rules of the driver block a JSON Schema cannot say, run by the kernel once
   * the block passed the schema (defaults applied). `config` is the whole configuration (is Vault
   * configured?). Each problem names a field path inside the block (`token`, `workspaces.tags`).
   */
  validate?(options: O, config: CtsConfig): readonly BlockProblem[];
  /**
   * Task-level blocks (or fields) this driver adds, by name, each described by
   * its JSON Schema (HCP Terraform: `terraform_cloud_workspace`). The kernel checks a task's block
   * against it when the task runs on this driver (weakly decoded as CTS decodes config; a block
   * written in HCL block syntax is one object), refuses it under any other driver unless it is
   * unset (absent, "", or a block of unset fields), and refuses task fields no driver declares.
   */
  readonly taskBlocks?: Readonly<Record<string, JsonSchema>>;
  /**
   * The task's `taskBlocks` as this driver reads them, once they passed their
   * schemas (defaults applied): e.g. empty values dropped, a deprecated field folded into its block.
   * Gets the declared fields the task sets; what it returns replaces them on the task (a field left
   * out is removed). Each deprecation (path inside the task) is logged at WARN for config files.
   */
  completeTaskBlocks?(fields: Readonly<Record<string, unknown>>): TaskBlocksCompletion;
  /**
   * Rules of a task on this driver beyond the schemas (its `taskBlocks`, its name as the driver
   * uses it), for config files and API-created tasks, also for a driver without `taskBlocks`; each
   * problem's path is inside the task.
   */
  validateTask?(task: TaskConfig): readonly BlockProblem[];
  /**
   * Checks the driver can run at all (binary present, version ok, credentials accepted). The kernel
   * calls it once at start-up for the configured `driver` block, after every plugin's `init` and
   * before any start hook; a rejection stops start-up ("Cannot verify driver "<name>": <why>").
   * Resolves to what was found, e.g. `terraform 1.11.4` (logged at DEBUG).
   */
  verify?(driver: DriverConfig<O>, signal: AbortSignal): Promise<string>;
  create(task: TaskConfig, ctx: DriverContext<O>): Promise<Driver>;
}
