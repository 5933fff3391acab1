/**
 * @module The task block this plugin owns: `hooks { pre_apply { ... } post_apply { ... } }`, each
 * hook a command (an argument list, never a shell line) with a time limit. Several blocks of one
 * kind run in the order written. Checked by the kernel in every task, from files and the API alike.
 */
import { type BlockProblem, type JsonSchema, type OptionsOf, parseGoDuration, type TaskOrigin } from "../../../core/plugin-api/mod.ts";

/** The task field this plugin owns. */
export const HOOKS_BLOCK = "hooks";

/** When a hook runs: before the driver renders and applies (may cancel the run), or after the apply. */
export type HookStage = "pre_apply" | "post_apply";

export const HOOK_STAGES: readonly HookStage[] = ["pre_apply", "post_apply"];

/** One hook's time limit when the block sets none. */
export const DEFAULT_TIMEOUT = "60s";

const hookSchema = {
  type: "object",
  additionalProperties: false,
  required: ["command"],
  properties: {
    command: {
      type: "array", minItems: 1, items: { type: "string" },
      description: "The program and its arguments, run without a shell, in the task's working directory.",
    },
    timeout: {
      type: "string", format: "go-duration", default: DEFAULT_TIMEOUT,
      description: "How long the command may run; then it is stopped (SIGTERM, then SIGKILL) and counts as failed.",
    },
  },
} as const satisfies JsonSchema;

export const hooksBlockSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    pre_apply: {
      type: "array", items: hookSchema,
      description: "Commands run before the driver applies; the first that fails cancels the run.",
    },
    post_apply: {
      type: "array", items: hookSchema,
      description: "Commands run after the apply (succeeded or failed); a failure marks the run.",
    },
  },
} as const satisfies JsonSchema;

/**
 * One hook as the kernel hands it over, typed by its schema: `command` (the program and its
 * arguments; a relative program path is resolved against the daemon's directory) and `timeout`
 * (a Go duration, defaulted).
 */
export type HookConfig = OptionsOf<typeof hookSchema>;
/** The `hooks` block, checked and defaulted by the kernel. */
export type HooksBlock = OptionsOf<typeof hooksBlockSchema>;

/** Why a task from the API may not set hooks unless the operator allowed it. */
export const FROM_API_REFUSED = "runs commands on the daemon's host, so it may be set in config files only " +
  "(to allow it through the HTTP API: plugin \"task-hooks\" { options = { allow_from_api = true } })";

/**
 * Rules beyond the schema: a program name, a time limit that is a positive duration, and no hooks
 * from the API unless `allowFromApi` (the API must not become a way to run any command on the host).
 */
export function hooksBlockProblems(block: Readonly<Record<string, unknown>>, origin: TaskOrigin, allowFromApi: boolean): BlockProblem[] {
  if (origin === "api" && !allowFromApi && HOOK_STAGES.some((stage) => ((block as HooksBlock)[stage] ?? []).length > 0)) {
    return [{ path: "", message: FROM_API_REFUSED }];
  }
  const problems: BlockProblem[] = [];
  const hooks = block as HooksBlock;
  for (const stage of HOOK_STAGES) {
    (hooks[stage] ?? []).forEach((hook, index) => {
      const at = `${stage}[${index}]`;
      if (hook.command[0]!.trim() === "") problems.push({ path: `${at}.command[0]`, message: "must name the program to run, got \"\"" });
      const ms = parseGoDuration(hook.timeout);
      if (ms === undefined || ms <= 0) problems.push({ path: `${at}.timeout`, message: `must be a positive duration such as "30s", got ${JSON.stringify(hook.timeout)}` });
    });
  }
  return problems;
}
