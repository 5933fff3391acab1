/**
 * @module The cts-runtime plugin contract. A third-party plugin depends on this package and
 * nothing else: it default-exports `definePlugin({...})` and reaches every service by token.
 */
export { createToken, TOKEN_ID_PATTERN } from "./src/token.ts";
export type { ResolvedDeps, Token, TokenMap, TokenScope } from "./src/token.ts";
export { defineService, definePlugin, PLUGIN_API_VERSION, PLUGIN_ID_PATTERN } from "./src/define-plugin.ts";
export type {
  HookOptions, PluginContext, PluginDefinition, PluginKind, PluginLifecycle, PluginSpec, ServiceContext, ServiceFactory,
} from "./src/define-plugin.ts";
export { CtsError, errorMessage, isCtsError } from "./src/errors.ts";
export { sleep } from "./src/sleep.ts";
export { readTlsFiles } from "./src/tls-files.ts";
export { clientAgentOptions } from "./src/client-transport.ts";
export { formatGoDuration, isGoDuration, isGoDurationSyntax, parseGoDuration } from "./src/go-duration.ts";
export { pageIds, pageRuns, retainedRuns, runIdTime } from "./src/run-retention.ts";
export { RUN_DETAIL_FIELDS, runDetail, runSummary } from "./src/run-summary.ts";
export type { RunDetailField } from "./src/run-summary.ts";
export { apiSettings, DEFAULT_API_CONFIG } from "./src/api-settings.ts";
export { mergeResourceChanges, planResourceChanges, resourceAction, resourceChangesOf } from "./src/plan-resources.ts";
export type { JsonPlanChange } from "./src/plan-resources.ts";
export { cutText, MESSAGE_MAX, quoteValue, QUOTED_VALUE_MAX } from "./src/quote-value.ts";
export { MAX_NESTING, tooDeep } from "./src/nesting-depth.ts";
export { workspaceNameProblems } from "./src/workspace-name.ts";
export type { TooDeep } from "./src/nesting-depth.ts";
export type { TlsMaterial } from "./src/tls-files.ts";
export type { CtsErrorCode } from "./src/errors.ts";
export type { BlockProblem, DeepReadonly, JsonSchema, OptionsOf } from "./src/json-schema.ts";
export type { Named, Registry } from "./src/registry.ts";
export type * from "./src/config.ts";
export type * from "./src/task-inputs.ts";
export type * from "./src/driver.ts";
export type * from "./src/conditions.ts";
export type * from "./src/run-hooks.ts";
export { CliExitCode } from "./src/cli-command.ts";
export type * from "./src/cli-command.ts";
export { taskBlockOf } from "./src/task-blocks.ts";
export type { TaskBlockFactory, TaskOrigin } from "./src/task-blocks.ts";
export { consulQuery, isPermanentConsulError } from "./src/services/consul-client.ts";
export type * from "./src/services/consul-client.ts";
export type * from "./src/services/logger.ts";
export type * from "./src/services/process-runner.ts";
export type * from "./src/services/file-system.ts";
export type * from "./src/services/task-store.ts";
export type * from "./src/services/task-manager.ts";
export type * from "./src/services/http-router.ts";
export type * from "./src/services/http-client.ts";
export type * from "./src/services/shutdown.ts";
export type * from "./src/services/task-builder.ts";
export type * from "./src/services/leadership.ts";
export type * from "./src/services/task-ownership.ts";
export type * from "./src/services/vault-secrets.ts";
export { MASKED_SECRET } from "./src/services/secret-masker.ts";
export type * from "./src/services/secret-masker.ts";
export type * from "./src/services/terraform-root-module.ts";
export type * from "./src/services/run-history.ts";
export type * from "./src/services/damaged-records.ts";
export type * from "./src/services/daemon-events.ts";
export type * from "./src/services/metrics.ts";
export * from "./src/core-tokens.ts";
