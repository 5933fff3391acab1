/**
 * @module Task blocks owned by plugins other than the task's driver (`hooks { ... }`): a plugin
 * registers the block's name and schema (`taskBlockRegistryToken`), and the kernel checks it in
 * every task, under any driver, from config files and the API alike, as it checks the blocks of
 * conditions and module inputs. The owner reads it from the task with `taskBlockOf`.
 */
import type { TaskConfig } from "./config.ts";
import type { BlockProblem, JsonSchema } from "./json-schema.ts";
import type { Named } from "./registry.ts";

export interface TaskBlockFactory extends Named {
  /**
   * The task field it owns (`hooks`). The kernel refuses a field core reads; pick a name no driver
   * declares (`DriverFactory.taskBlocks`): the registered block takes the field under every driver.
   */
  readonly name: string;
  /**
   * The block's schema (an object). A block written in HCL block syntax is its one body; values
   * are weakly decoded as CTS decodes config, and defaults are filled in before the owner reads it.
   */
  readonly optionsSchema: JsonSchema;
  /**
   * Rules beyond the schema, on the checked block; each problem's path is inside the block.
   * `origin` says where the task comes from, so a block that runs commands on the host can be
   * refused from the API unless the operator allowed it.
   */
  validate?(block: Readonly<Record<string, unknown>>, task: TaskConfig, origin: TaskOrigin): readonly BlockProblem[];
}

/** Where a task block was written: a config file (or a task file checked by the CLI), or an API request. */
export type TaskOrigin = "file" | "api";

/** The block `name` of `task` as the kernel completed it, or undefined when the task has none. */
export function taskBlockOf(task: TaskConfig, name: string): Readonly<Record<string, unknown>> | undefined {
  const value = (task as unknown as Readonly<Record<string, unknown>>)[name];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Readonly<Record<string, unknown>> : undefined;
}
