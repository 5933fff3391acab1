/**
 * @module The exact command lines the driver runs, as pure functions (the same for Terraform and
 * OpenTofu, whose CLIs agree on every flag used here), so they can be tested without a binary.
 */

/**
 * Every command that takes the state lock gets `-lock-timeout` (driver "terraform" lock_timeout): CTS
 * passes 0s to plan and nothing elsewhere, so a held lock fails at once (see lock-wait.ts).
 */
export const initArgs = (lockTimeout = "0s"): string[] =>
  ["init", "-no-color", "-input=false", "-backend=true", "-get=true", "-upgrade=false", "-force-copy", `-lock-timeout=${lockTimeout}`];

export const workspaceNewArgs = (name: string, lockTimeout = "0s"): string[] =>
  ["workspace", "new", `-lock-timeout=${lockTimeout}`, name];

export const workspaceSelectArgs = (name: string): string[] => ["workspace", "select", name];

/** Without -force: Terraform refuses to delete a workspace whose state still tracks resources. */
export const workspaceDeleteArgs = (name: string, lockTimeout = "0s"): string[] =>
  ["workspace", "delete", `-lock-timeout=${lockTimeout}`, name];

export const validateArgs = (): string[] => ["validate", "-no-color", "-json"];

/** CTS's plan; with `planFile`, also saved there (the apply then applies exactly it). */
export const planArgs = (lockTimeout = "0s", planFile?: string): string[] => [
  "plan", "-no-color", "-input=false", "-detailed-exitcode", `-lock-timeout=${lockTimeout}`, "-lock=true", "-parallelism=10",
  "-refresh=true", ...(planFile ? [`-out=${planFile}`] : []),
];

/** CTS's apply; with `planFile`, of that saved plan. */
export const applyArgs = (lockTimeout = "0s", planFile?: string): string[] => [
  "apply", "-no-color", "-auto-approve", "-input=false", "-lock=true", `-lock-timeout=${lockTimeout}`, "-parallelism=10",
  "-refresh=true", ...(planFile ? [planFile] : []),
];

/** The saved plan as JSON (resources and their actions, the module's outputs). */
export const showPlanArgs = (planFile: string): string[] => ["show", "-json", "-no-color", planFile];

/** An expression evaluated against the state, read from stdin. */
export const consoleArgs = (): string[] => ["console", "-no-color"];

/** Where a run's plan is saved in the task's working directory (removed after the apply). */
export const PLAN_FILE = "cts-runtime.tfplan";

/** The plan's text without the lines about the saved plan file that `-out` adds at its end. */
export function withoutSavedPlanNote(stdout: string): string {
  const at = stdout.search(/\n─+\n\nSaved the plan to: /);
  return at < 0 ? stdout : `${stdout.slice(0, at).trimEnd()}\n`;
}

export const destroyArgs = (lockTimeout = "0s"): string[] => [
  "destroy", "-no-color", "-auto-approve", "-input=false", "-lock=true", `-lock-timeout=${lockTimeout}`, "-parallelism=10",
  "-refresh=true",
];

export interface TerraformEnvSource {
  /** `task_env` of every provider the task uses (later providers win on conflicts). */
  readonly providerEnv: readonly Readonly<Record<string, string>>[];
  /** Consul connection variables (added when the backend is Consul). */
  readonly consulEnv?: Readonly<Record<string, string>>;
  /** `<working dir>/terraform.log` when `persist_log = true`. */
  readonly logPath?: string;
  /** `TF_VAR_<provider>` values that must not be written to a file (read from Vault). */
  readonly sensitiveVariables?: Readonly<Record<string, string>>;
}

/** The environment added to the daemon's for every Terraform command of a task. */
export function terraformEnvironment(source: TerraformEnvSource): Record<string, string> {
  const env: Record<string, string> = {
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    CHECKPOINT_DISABLE: "1",
    ...source.consulEnv,
  };
  for (const providerEnv of source.providerEnv) Object.assign(env, providerEnv);
  Object.assign(env, source.sensitiveVariables);
  if (source.logPath) {
    env.TF_LOG = "TRACE";
    env.TF_LOG_PATH = source.logPath;
  }
  return env;
}

/** True when init failed only because the selected workspace is missing from the backend. */
export function isMissingWorkspaceError(output: string): boolean {
  return /workspace .*does not exist|failed to select workspace|Currently selected workspace .* does not exist/i.test(output);
}

/** True when `workspace new` failed because the workspace is already there. */
export function isWorkspaceExistsError(output: string): boolean {
  return /already exists/i.test(output);
}
