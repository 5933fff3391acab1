/**
 * @module The services the kernel itself provides in the root scope before any plugin runs:
 * config, run options, the runtime version, the task builder, process runner, file system, HTTP router, the named registries
 * (drivers, conditions, module inputs, metrics sources, plugin task blocks, run hooks),
 * the live event bus, the secret masker and the shutdown request. `loggerToken` is not here: it is provided per plugin scope.
 */
import {
  configToken, conditionRegistryToken, daemonEventsToken, driverRegistryToken, environmentToken, fileSystemToken, httpClientFactoryToken,
  httpRouterToken, loggerToken, metricsSourceRegistryToken,
  moduleInputRegistryToken, processRunnerToken, runHookRegistryToken, runOptionsToken, runtimeVersionToken, secretMaskerToken, shutdownToken,
  taskBlockRegistryToken, taskBuilderToken,
  type ConditionFactory, type CtsConfig, type DriverFactory, type FileSystem, type MetricsSource, type ModuleInputFactory,
  type ProcessRunner, type RunHook, type RunOptions, type SecretMasker, type Shutdown, type TaskBlockFactory, type Token,
} from "../plugin-api/mod.ts";
import { createTaskBuilder } from "../config/task-builder.ts";
import { KernelHttpRouter } from "../http/http-router.ts";
import { createFileSystem } from "../runtime/file-system.ts";
import { createHttpClientFactory } from "../runtime/http-client.ts";
import { processEnvironment } from "../runtime/process-environment.ts";
import { createProcessRunner } from "../runtime/process-runner.ts";
import { ScopedContainer } from "./container/scoped-container.ts";
import { VERSION } from "../version.ts";
import { NamedRegistry } from "./registries/named-registry.ts";
import { DaemonEventBus, RETAINED_EVENTS } from "./daemon-event-bus.ts";
import { SecretList } from "./secret-list.ts";
import { configSecrets } from "../config/config-secrets.ts";
import type { Ajv } from "ajv";
import { BlockOptions } from "./block-options.ts";
import { createPluginAjv } from "./plugin-ajv.ts";
import { checkTaskBlocks, type BlockRegistries } from "./task-blocks.ts";
import { completeTask } from "./complete-task.ts";
import { withServicesField } from "./services-field.ts";
import { withValidatedDriver, withValidatedInput } from "./validated-factories.ts";
import { checkedTaskBlock } from "./plugin-task-blocks.ts";

/** Every token the kernel provides, for the dependency graph (logger included: it is always there). */
export const coreTokens: readonly Token<unknown>[] = [
  configToken, runOptionsToken, processRunnerToken, fileSystemToken, httpRouterToken, driverRegistryToken,
  conditionRegistryToken, moduleInputRegistryToken, shutdownToken, loggerToken, httpClientFactoryToken, environmentToken,
  runtimeVersionToken, taskBuilderToken, daemonEventsToken, secretMaskerToken, metricsSourceRegistryToken,
  taskBlockRegistryToken, runHookRegistryToken,
];

export interface CoreServicesOptions {
  readonly config: CtsConfig;
  readonly runOptions: RunOptions;
  readonly shutdown: Shutdown;
  readonly processRunner?: ProcessRunner;
  readonly fileSystem?: FileSystem;
  /** @default the process environment */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** @default an empty SecretList */
  readonly secrets?: SecretMasker;
}

export interface CoreServices {
  readonly root: ScopedContainer;
  readonly router: KernelHttpRouter;
  readonly secrets: SecretMasker;
  readonly registries: readonly NamedRegistry<{ name: string }>[];
  readonly fileSystem: FileSystem;
  /** One ajv for plugin options and plugin-owned blocks. */
  readonly ajv: Ajv;
  readonly blocks: BlockOptions;
  readonly blockRegistries: BlockRegistries;
}

export function createCoreServices(options: CoreServicesOptions): CoreServices {
  const root = ScopedContainer.createRoot();
  const secrets = options.secrets ?? new SecretList();
  // Tokens and passwords of the config are known from the start (plugins add what they learn later).
  for (const secret of configSecrets(options.config)) secrets.add(secret.value, secret.source);
  const router = new KernelHttpRouter(secrets);
  const ajv = createPluginAjv();
  const blocks = new BlockOptions(ajv);
  const drivers = new NamedRegistry<DriverFactory>("driver", (factory) => withValidatedDriver(factory, blocks));
  const conditions = new NamedRegistry<ConditionFactory>("condition", (factory) => withValidatedInput(factory, "condition", blocks));
  const moduleInputs = new NamedRegistry<ModuleInputFactory>("module input", (factory) => withValidatedInput(factory, "module_input", blocks));
  const taskBlocks = new NamedRegistry<TaskBlockFactory>("task block", checkedTaskBlock);
  const blockRegistries: BlockRegistries = { drivers, conditions, moduleInputs, taskBlocks };
  const metricsSources = new NamedRegistry<MetricsSource>("metrics source");
  const runHooks = new NamedRegistry<RunHook>("run hook");
  const fileSystem = options.fileSystem ?? createFileSystem();
  root.provide(configToken, options.config);
  root.provide(runOptionsToken, options.runOptions);
  root.provide(runtimeVersionToken, VERSION);
  root.provide(taskBuilderToken, createTaskBuilder(
    options.config,
    // An API task's `services` list names no `service` block (CTS's API has none to name).
    (task, path) => checkTaskBlocks(withServicesField(task, [], blockRegistries), path, () => undefined, blockRegistries, blocks, "api"),
    (task) => completeTask(withServicesField(task, [], blockRegistries), blockRegistries, blocks),
  ));
  root.provide(processRunnerToken, options.processRunner ?? createProcessRunner());
  root.provide(fileSystemToken, fileSystem);
  root.provide(httpRouterToken, router);
  root.provide(httpClientFactoryToken, createHttpClientFactory());
  root.provide(environmentToken, options.environment ?? processEnvironment());
  root.provide(driverRegistryToken, drivers);
  root.provide(conditionRegistryToken, conditions);
  root.provide(moduleInputRegistryToken, moduleInputs);
  root.provide(metricsSourceRegistryToken, metricsSources);
  root.provide(taskBlockRegistryToken, taskBlocks);
  root.provide(runHookRegistryToken, runHooks);
  root.provide(shutdownToken, options.shutdown);
  root.provide(daemonEventsToken, new DaemonEventBus(RETAINED_EVENTS, secrets));
  root.provide(secretMaskerToken, secrets);
  return { root, router, secrets, registries: [drivers, conditions, moduleInputs, metricsSources, taskBlocks, runHooks], fileSystem, ajv, blocks, blockRegistries };
}

/** The default shutdown service when the caller passes none: remembers requests, ends nothing. */
export interface RecordingShutdown extends Shutdown {
  readonly requests: readonly { readonly code: number; readonly reason: string }[];
}

export function createRecordingShutdown(): RecordingShutdown {
  const requests: { code: number; reason: string }[] = [];
  return {
    requests,
    requestExit(code, reason) {
      requests.push({ code, reason });
    },
  };
}
