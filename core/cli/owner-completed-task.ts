/**
 * @module A task file's task as its blocks' owners read it, for `task create`: CTS's CLI decodes a
 * task file with the config decoder (weakly, defaults filled) before it sends the request. Core's
 * loader leaves condition and module_input bodies to their plugins, so the built-in plugins are
 * initialised here (validate mode: nothing is contacted) and the kernel completes the task. Blocks
 * of plugins the CLI does not have go as written; the daemon's kernel completes those.
 */
import { createKernel } from "../kernel/kernel.ts";
import { createLogSink } from "../logging/log-sink.ts";
import {
  conditionRegistryToken, configToken, driverRegistryToken, taskBlockRegistryToken, type CtsConfig, type TaskConfig,
} from "../plugin-api/mod.ts";
import { ConfigError } from "../config/config-error.ts";
import { unknownTaskFieldIssues } from "../kernel/driver-task-fields.ts";
import { pluginTaskFields } from "../kernel/plugin-task-blocks.ts";

export interface OwnerCompletedTask {
  readonly task: TaskConfig;
  /** The condition's owner says it never buffers (CTS: schedule): the request carries no buffer_period. */
  readonly unbuffered: boolean;
}

export async function ownerCompletedTask(
  config: CtsConfig, index: number, fileOf: (path: string) => string | undefined = () => undefined,
): Promise<OwnerCompletedTask> {
  const kernel = await createKernel({
    config,
    runOptions: { mode: "validate", inspectTasks: [], resetStorage: false },
    logSink: createLogSink({ level: "ERROR", write: () => {} }),
  });
  try {
    await kernel.init();
    // A field no driver declares is refused here, as the loader refused it before drivers owned fields.
    const unknown = unknownTaskFieldIssues(
      config.tasks[index]!, `task[${index}]`, fileOf, kernel.resolve(driverRegistryToken), pluginTaskFields(kernel.resolve(taskBlockRegistryToken)),
    );
    if (unknown.length > 0) throw new ConfigError(unknown);
    const task = kernel.resolve(configToken).tasks[index]!;
    return { task, unbuffered: kernel.resolve(conditionRegistryToken).get(task.condition.type)?.unbuffered === true };
  } finally {
    await kernel.stop();
  }
}
