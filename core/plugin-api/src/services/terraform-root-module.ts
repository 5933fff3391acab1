/**
 * @module The Terraform root module CTS generates for a task (main.tf, variables.tf,
 * variables.module.tf), as a service: plugins/driver-terraform provides it, and any driver that
 * runs a task's module with Terraform elsewhere (the HCP Terraform driver) renders the same files
 * through it instead of keeping a copy that drifts from CTS's layout.
 */
import type { ProviderConfig, TaskConfig } from "../config.ts";
import type { InputVariableDeclaration, TaskInputSpec } from "../task-inputs.ts";

/** A `terraform { backend "<type>" { ... } }` block. */
export interface TerraformBackendBlock {
  readonly type: string;
  /** Attributes, rendered sorted by key. */
  readonly config: Readonly<Record<string, unknown>>;
}

/** One provider of the task, as main.tf and its object variable see it. */
export interface TerraformProviderModel {
  readonly name: string;
  readonly alias?: string;
  readonly auto_commit?: boolean;
  /** Provider arguments without the meta-arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Holds values read from Vault: a driver must not write its value to a file. */
  readonly sensitive?: boolean;
}

/** A variable a third-party condition or module input publishes, as the root module declares it. */
export interface TerraformInputVariable {
  readonly name: string;
  readonly declaration?: InputVariableDeclaration;
}

/** Everything the rendered files depend on, derived once from the task, so rendering is pure. */
export interface TerraformRootModuleModel {
  readonly taskName: string;
  readonly description: string;
  /** What main.tf's module block names. */
  readonly moduleSource: string;
  /** Empty: no `version` argument. */
  readonly moduleVersion: string;
  /** Whether `catalog_services` / `consul_kv` are declared and passed to the module. */
  readonly catalogServices: boolean;
  readonly consulKv: boolean;
  /**
   * The variables third-party blocks publish (not `services`, `catalog_services`, `consul_kv`), in
   * block order: declared in variables.tf, passed to the module in main.tf, valued in terraform.tfvars.
   * @default none
   */
  readonly otherInputs?: readonly TerraformInputVariable[];
  /** Sorted by name; an ID the config does not define still gets an (empty) provider, as in CTS. */
  readonly providers: readonly TerraformProviderModel[];
  /** `required_providers` entries for the task's providers only. */
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  /** Absent: main.tf has no backend block (state lives where the run happens). */
  readonly backend?: TerraformBackendBlock;
  /** The task's `variables`, parsed to plain values. */
  readonly variables: Readonly<Record<string, unknown>>;
}

/** What a task's root module is built from; the options are where drivers differ. */
export interface TerraformRootModuleSource {
  readonly task: TaskConfig;
  /** `DriverContext.inputs`: which Consul variables the task's blocks render. */
  readonly inputs: readonly TaskInputSpec[];
  /** `DriverContext.providers`. */
  readonly providers: readonly ProviderConfig[];
  /** The driver's `required_providers`; only the task's providers' entries are kept. */
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  /** The backend block; omit it when the run's own workspace keeps the state. */
  readonly backend?: TerraformBackendBlock;
  /**
   * What the module block names, when not `task.module` as written: a local path made absolute,
   * or `./module` when the module's files travel inside the configuration. @default task.module
   */
  readonly moduleSource?: string;
  /** @default task.version */
  readonly moduleVersion?: string;
}

export interface TerraformRootModule {
  /** Derives the model (parses the task's variables: a bad value is a CtsError naming it). */
  build(source: TerraformRootModuleSource): Promise<TerraformRootModuleModel>;
  /**
   * main.tf, variables.tf and variables.module.tf, file name → text, byte for byte as CTS writes
   * them; `undefined` means the file must not exist (variables.module.tf without task variables).
   */
  render(model: TerraformRootModuleModel): Record<string, string | undefined>;
  /** A value as HCL text, `terraform fmt` aligned; `indent` is the column the value starts at. */
  encodeHclValue(value: unknown, indent?: number): string;
  /** The value of a provider's object variable: its arguments plus `alias` and `auto_commit`, keys sorted. */
  providerValue(provider: TerraformProviderModel): Record<string, unknown>;
  /** True for module sources Terraform reads from the local file system (`./x`, `../x`, `/x`, `C:\x`). */
  isLocalModuleSource(source: string): boolean;
}
