/**
 * @module Task hooks (beyond CTS, CTS#309 and CTS#293): commands a task runs before the driver
 * applies (`pre_apply`, which can cancel the run) and after the apply (`post_apply`, e.g. commit and
 * push a firewall's candidate configuration), under the daemon's process supervisor, time-limited,
 * their masked output kept in the run's record. Written against the contract alone, as a third party
 * would: it owns the task block `hooks` (`taskBlockRegistryToken`) and registers a run hook
 * (`runHookRegistryToken`).
 */
import {
  definePlugin, fileSystemToken, type JsonSchema, loggerToken, type OptionsOf, type PluginContext, processRunnerToken, runHookRegistryToken, secretMaskerToken,
  taskBlockRegistryToken,
} from "../../core/plugin-api/mod.ts";
import { HOOKS_BLOCK, hooksBlockProblems, hooksBlockSchema } from "./src/hooks-block.ts";
import { createTaskHooks } from "./src/task-hooks.ts";

export { hooksBlockSchema } from "./src/hooks-block.ts";
export type { HookConfig, HooksBlock, HookStage } from "./src/hooks-block.ts";

/** The plugin's options (`plugin "task-hooks" { options = { ... } }`), the one description of their type. */
const taskHooksOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    max_output_chars: {
      type: "integer", minimum: 256, maximum: 1_048_576, default: 16_384,
      description: "Characters of each hook's output kept in the run record (the last ones).",
    },
    allow_from_api: {
      type: "boolean", default: false,
      description: "Let tasks created or changed through the HTTP API set hooks (commands on this host); by default only config files may.",
    },
  },
} as const satisfies JsonSchema;

export type TaskHooksOptions = OptionsOf<typeof taskHooksOptionsSchema>;

export default definePlugin({
  id: "task-hooks",
  kind: "handler",
  logName: "hooks",
  description: "hooks { pre_apply, post_apply }: commands around each apply of a task",
  optionsSchema: taskHooksOptionsSchema,
  deps: {
    taskBlocks: taskBlockRegistryToken,
    runHooks: runHookRegistryToken,
    processes: processRunnerToken,
    fs: fileSystemToken,
    masker: secretMaskerToken,
    logger: loggerToken,
  },
  init({ taskBlocks, runHooks, processes, fs, masker, logger }, ctx: PluginContext<TaskHooksOptions>) {
    taskBlocks.register({
      name: HOOKS_BLOCK, optionsSchema: hooksBlockSchema,
      validate: (block, _task, origin) => hooksBlockProblems(block, origin, ctx.options.allow_from_api),
    });
    runHooks.register(createTaskHooks({ processes, fs, masker, logger, maxOutputChars: ctx.options.max_output_chars }));
  },
});
