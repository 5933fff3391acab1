/** @module Tokens for the services the core and the built-in plugins provide. */
import type { ConditionFactory, ModuleInputFactory, QueryWatcher } from "./conditions.ts";
import type { CtsConfig, RunOptions } from "./config.ts";
import type { DriverFactory } from "./driver.ts";
import type { Registry } from "./registry.ts";
import type { ConsulClient } from "./services/consul-client.ts";
import type { FileSystem } from "./services/file-system.ts";
import type { HttpClientFactory } from "./services/http-client.ts";
import type { HttpRouter } from "./services/http-router.ts";
import type { Logger } from "./services/logger.ts";
import type { ProcessRunner } from "./services/process-runner.ts";
import type { TaskManager } from "./services/task-manager.ts";
import type { TaskStore } from "./services/task-store.ts";
import type { Shutdown } from "./services/shutdown.ts";
import type { TaskBuilder } from "./services/task-builder.ts";
import type { Leadership } from "./services/leadership.ts";
import type { VaultSecrets } from "./services/vault-secrets.ts";
import type { TerraformRootModule } from "./services/terraform-root-module.ts";
import type { DaemonEvents } from "./services/daemon-events.ts";
import type { SecretMasker } from "./services/secret-masker.ts";
import type { MetricsSource } from "./services/metrics.ts";
import type { RunHook } from "./run-hooks.ts";
import type { TaskBlockFactory } from "./task-blocks.ts";
import { createToken, type Token } from "./token.ts";

/** A logger named after the plugin that asks for it. */
export const loggerToken: Token<Logger> = createToken("core.logger", "plugin");
/** The validated, frozen configuration. */
export const configToken: Token<CtsConfig> = createToken("core.config");
/** The cts-runtime version the plugin runs in (e.g. "0.1.0"), for build-info metrics and user agents. */
export const runtimeVersionToken: Token<string> = createToken("core.runtimeVersion");
/** How the process was started (daemon, once, inspect). */
export const runOptionsToken: Token<RunOptions> = createToken("core.runOptions");
export const processRunnerToken: Token<ProcessRunner> = createToken("core.processRunner");
export const fileSystemToken: Token<FileSystem> = createToken("core.fileSystem");
/** Outbound HTTP(S) clients with TLS settings. */
export const httpClientFactoryToken: Token<HttpClientFactory> = createToken("core.httpClients");
/** The daemon's environment variables (read-only), for drivers' env fallbacks such as TFC_TOKEN. */
export const environmentToken: Token<Readonly<Record<string, string | undefined>>> = createToken("core.environment");
/** The daemon's live event bus (`GET /v1/events`, the status page); provided by the kernel. */
export const daemonEventsToken: Token<DaemonEvents> = createToken("core.daemonEvents");
/** Every secret the daemon knows; what it records or serves goes through `mask` (provided by the kernel). */
export const secretMaskerToken: Token<SecretMasker> = createToken("core.secretMasker");
export const httpRouterToken: Token<HttpRouter> = createToken("core.httpRouter");
export const driverRegistryToken: Token<Registry<DriverFactory>> = createToken("core.driverRegistry");
export const conditionRegistryToken: Token<Registry<ConditionFactory>> = createToken("core.conditionRegistry");
export const moduleInputRegistryToken: Token<Registry<ModuleInputFactory>> = createToken("core.moduleInputRegistry");
/** Metrics plugins contribute to `GET /metrics` (read by plugins/metrics at scrape time; provided by the kernel). */
export const metricsSourceRegistryToken: Token<Registry<MetricsSource>> = createToken("core.metricsSourceRegistry");
/** Task blocks plugins own besides drivers (`hooks`), checked by the kernel in every task (provided by the kernel). */
export const taskBlockRegistryToken: Token<Registry<TaskBlockFactory>> = createToken("core.taskBlockRegistry");
/** Work around every run (before the apply, with a veto; after it), called by the task engine (provided by the kernel). */
export const runHookRegistryToken: Token<Registry<RunHook>> = createToken("core.runHookRegistry");

/** Provided by plugins/consul-client. */
export const consulClientToken: Token<ConsulClient> = createToken("consul.client");
/** Provided by the task engine: one blocking query per distinct Consul query. */
export const queryWatcherToken: Token<QueryWatcher> = createToken("engine.queryWatcher");
/** Provided by plugins/task-store-memory, or by plugins/ha-consul when HA is configured. */
export const taskStoreToken: Token<TaskStore> = createToken("store.tasks");
/** Provided by the task engine. */
export const taskManagerToken: Token<TaskManager> = createToken("engine.taskManager");
/** Reads task blocks that come from outside config files (API requests) with the config loader's rules. */
export const taskBuilderToken: Token<TaskBuilder> = createToken("core.taskBuilder");
/** Ends the process through the CLI (the kernel never calls exit itself). */
export const shutdownToken: Token<Shutdown> = createToken("core.shutdown");
/** Provided by plugins/leadership-standalone, or by plugins/ha-consul when HA is configured. */
export const leadershipToken: Token<Leadership> = createToken("core.leadership");
/** Provided by plugins/vault-client: `{{ with secret }}` reads (disabled without a `vault {}` block). */
export const vaultSecretsToken: Token<VaultSecrets> = createToken("vault.secrets");
/** Provided by plugins/driver-terraform: the root module CTS generates, for drivers that run Terraform elsewhere. */
export const terraformRootModuleToken: Token<TerraformRootModule> = createToken("terraform.rootModule");
