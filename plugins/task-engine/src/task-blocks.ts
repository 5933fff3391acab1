/**
 * @module What a task's blocks are made from and read through: the driver, condition and
 * module_input factories other plugins register, the terraform_provider blocks' template values,
 * and the shared watcher pool sources read Consul through. One service, so a task runtime names one group.
 */
import type {
  ConditionFactory, DriverFactory, ModuleInputFactory, QueryWatcher, Registry,
} from "../../../core/plugin-api/mod.ts";
import {
  conditionRegistryToken, defineService, driverRegistryToken, moduleInputRegistryToken, queryWatcherToken,
} from "../../../core/plugin-api/mod.ts";
import { providerSecretsToken, taskBlocksToken } from "./engine-tokens.ts";
import type { ProviderTemplates } from "./provider-templates.ts";

export interface TaskBlocks {
  readonly drivers: Registry<DriverFactory>;
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
  /** `{{ key }}` and Vault values of terraform_provider blocks, read once (provider-templates.ts). */
  readonly providerTemplates: ProviderTemplates;
  readonly watcher: QueryWatcher;
}

export const taskBlocksService = defineService({
  token: taskBlocksToken,
  deps: {
    drivers: driverRegistryToken, conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken,
    watcher: queryWatcherToken, providers: providerSecretsToken,
  },
  create: ({ drivers, conditions, moduleInputs, watcher, providers }): TaskBlocks =>
    Object.freeze({ drivers, conditions, moduleInputs, watcher, providerTemplates: providers.templates }),
});
