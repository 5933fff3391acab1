/**
 * @module The kernel's part in the blocks plugins own, once every plugin registered its owners:
 * the config's blocks checked (`Kernel.blockIssues`), the warnings they earn (`Kernel.blockWarnings`),
 * and the driver body and tasks completed by their owners before any plugin starts reading them
 * (complete-task.ts), with CTS's deprecated `services` task field turned into blocks first.
 */
import type { CtsConfig } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import type { CoreServices } from "./core-services.ts";
import { configBlockIssues } from "./task-blocks.ts";
import { completeTask, renamedFieldWarnings } from "./complete-task.ts";
import { unbufferedWarnings } from "./unbuffered-condition.ts";
import { driverTaskFieldWarnings } from "./driver-task-fields.ts";
import { completeDriverBlock } from "./driver-body.ts";
import { withServicesField, withServicesFields } from "./services-field.ts";

type FileOf = (path: string) => string | undefined;
type Owners = Pick<CoreServices, "blockRegistries" | "blocks">;

/** Every plugin-owned block of `config` checked against its registered owner. */
export function ownedBlockIssues(config: CtsConfig, fileOf: FileOf, { blockRegistries, blocks }: Owners): ConfigIssue[] {
  const withServices = withServicesFields(config, fileOf, blockRegistries).config;
  return configBlockIssues(withServices, fileOf, blockRegistries, blocks);
}

/** Deprecated fields owners rename, the `services` field's notes, ignored buffer periods, driver task-field warnings. */
export function ownedBlockWarnings(config: CtsConfig, fileOf: FileOf, { blockRegistries, blocks }: Owners): ConfigIssue[] {
  return [
    ...withServicesFields(config, fileOf, blockRegistries).warnings,
    ...renamedFieldWarnings(config, fileOf, blockRegistries),
    ...unbufferedWarnings(config, fileOf, blockRegistries.conditions),
    ...driverTaskFieldWarnings(config.tasks, fileOf, blockRegistries.drivers, blocks),
  ];
}

/** The driver body and the tasks of `config` as their owners read them; `fileOf` as `ownedBlockIssues` gets it. */
export function completedByOwners(config: CtsConfig, { blockRegistries, blocks }: Owners, fileOf?: FileOf): Pick<CtsConfig, "driver" | "tasks"> {
  return {
    driver: completeDriverBlock(config, blockRegistries.drivers.get(config.driver.name), blocks, fileOf),
    tasks: config.tasks.map((task) => completeTask(withServicesField(task, config.service_blocks ?? [], blockRegistries), blockRegistries, blocks)),
  };
}
