/** @module Creating a task's driver instance with its context (working dir, providers, logger). */
import type { Driver, DriverConfig, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { taskInputSpecs } from "./task-input-specs.ts";
import { taskInputTemplates } from "./task-input-templates.ts";

/** What the task's runtime lets its driver say and ask while a run waits (DriverContext). */
export interface RunWaitHooks {
  readonly waiting: (reason: string | undefined) => void;
  readonly newerRunQueued: () => boolean;
}

export async function createTaskDriver(task: TaskConfig, ctx: EngineContext, hooks?: RunWaitHooks): Promise<Driver> {
  const factory = ctx.blocks.drivers.get(task.driver);
  if (!factory) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot create task "${task.name}": no driver "${task.driver}" is registered (known: ${ctx.blocks.drivers.names().join(", ") || "none"})`);
  }
  const driver: DriverConfig = ctx.config.driver.name === task.driver ? ctx.config.driver : { name: task.driver, options: {} };
  // CTS lets a task name a provider without a `terraform_provider` block (default provider config).
  const configured = task.providers.flatMap((id) => ctx.config.terraform_providers.filter((provider) => provider.id === id));
  const providers = await Promise.all(configured.map((provider) => ctx.blocks.providerTemplates.resolve(provider, ctx.signal)));
  return factory.create(task, {
    driver,
    providers,
    // The credentials in use (rendered from Vault, rotated), not the block's templates.
    consul: { ...ctx.config.consul, ...ctx.consul.credentials?.() },
    workingDir: ctx.fileSystem.resolve(task.working_dir),
    logger: ctx.logger.child(`driver.${task.driver}`, { task_name: task.name }),
    inputs: taskInputSpecs(task, ctx.blocks.conditions, ctx.blocks.moduleInputs),
    templates: taskInputTemplates(task, ctx.blocks.conditions, ctx.blocks.moduleInputs),
    ...(hooks ? { waiting: hooks.waiting, newerRunQueued: hooks.newerRunQueued } : {}),
  });
}
