/** @module definePlugin: what every plugin package (built-in or third-party) default-exports. */
import type { JsonSchema } from "./json-schema.ts";
import type { ResolvedDeps, Token, TokenMap } from "./token.ts";

/**
 * What a plugin mainly adds, for `cts-runtime` listings and logs (the kernel does not branch on
 * it): a driver, conditions or module inputs (`condition`), an HTTP API (`api`), a task store
 * (`store`), or services other plugins use (`service`).
 */
export type PluginKind = "service" | "driver" | "condition" | "api" | "store" | "handler";

export const PLUGIN_ID_PATTERN: RegExp = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The contract major this package describes; the kernel refuses plugins built for another. */
export const PLUGIN_API_VERSION = 1 as const;

/**
 * What a service factory gets beside its deps: start/stop hooks that run with those of the plugin
 * that provides it (a service that owns a loop or a socket starts and stops next to where it is
 * made), the kernel's stop signal, and the providing plugin's validated options.
 */
export interface ServiceContext<TOptions = unknown> {
  /** The plugin being set up when the instance is made (for a `plugin`-scoped token: its consumer). */
  readonly pluginId: string;
  /** The providing plugin's options; type them by annotating `create(deps, ctx: ServiceContext<MyOptions>)`. */
  readonly options: TOptions;
  readonly lifecycle: PluginLifecycle;
  /** Aborted when the kernel begins to stop. */
  readonly signal: AbortSignal;
}

/**
 * Creates one service instance; the kernel registers it under `token`. `TInstance` is what `create`
 * really returns (e.g. a client with a `close()` the token's interface does not show), so `dispose`
 * gets the concrete instance without a cast.
 */
// deno-lint-ignore no-explicit-any
export interface ServiceFactory<T = unknown, TDeps extends TokenMap = any, TInstance extends T = T> {
  readonly token: Token<T>;
  readonly deps: TDeps;
  create(deps: ResolvedDeps<TDeps>, ctx: ServiceContext): TInstance | Promise<TInstance>;
  /** Runs after every stop hook, in reverse creation order. */
  dispose?(instance: TInstance): void | Promise<void>;
}

/** Declares a service factory with its types inferred from `token`, `deps` and what `create` returns. */
export function defineService<T, TDeps extends TokenMap, TInstance extends T = T>(
  factory: ServiceFactory<T, TDeps, TInstance>,
): ServiceFactory<T, TDeps, TInstance> {
  return Object.freeze({ ...factory });
}

export interface HookOptions {
  /** How long the kernel waits for this hook before reporting it as timed out. @default 10000 */
  readonly timeoutMs?: number;
}

/** Start/stop hooks a plugin registers from `init`, next to the resource they manage. */
export interface PluginLifecycle {
  /** Runs after every plugin has initialised, in dependency order. */
  onStart(hook: () => void | Promise<void>, options?: HookOptions): void;
  /** Runs when the kernel stops, in reverse start order. */
  onStop(hook: () => void | Promise<void>, options?: HookOptions): void;
}

export interface PluginContext<TOptions> {
  readonly pluginId: string;
  /** Validated against `optionsSchema`, defaults applied, deep-frozen. */
  readonly options: TOptions;
  readonly lifecycle: PluginLifecycle;
  /** Aborted when the kernel begins to stop. */
  readonly signal: AbortSignal;
}

export interface PluginSpec<TOptions, TDeps extends TokenMap> {
  readonly id: string;
  readonly kind: PluginKind;
  readonly description?: string;
  /**
   * The name its plugin-scoped logger prints, e.g. CTS's `ha`, `api`, `driver.terraform`.
   * @default the plugin id
   */
  readonly logName?: string;
  readonly optionsSchema?: JsonSchema;
  // deno-lint-ignore no-explicit-any
  readonly provides?: readonly ServiceFactory<any, any>[];
  readonly deps: TDeps;
  init?(deps: ResolvedDeps<TDeps>, ctx: PluginContext<TOptions>): void | Promise<void>;
}

/** What a plugin package default-exports. */
export interface PluginDefinition<TOptions = unknown, TDeps extends TokenMap = TokenMap>
  extends PluginSpec<TOptions, TDeps> {
  /** Brand checked by the loader instead of `instanceof`. */
  readonly $$type: "@cts-runtime/plugin";
  readonly apiVersion: typeof PLUGIN_API_VERSION;
}

/**
 * Declares a plugin. Type `options` by annotating `init`'s second parameter
 * (`init(deps, ctx: PluginContext<MyOptions>)`) so that `deps` stays inferred.
 *
 * @example
 * export default definePlugin({
 *   id: "driver-echo",
 *   kind: "driver",
 *   deps: { drivers: driverRegistryToken },
 *   init({ drivers }) { drivers.register(echoDriverFactory); },
 * });
 */
export function definePlugin<TOptions = Record<string, never>, TDeps extends TokenMap = TokenMap>(
  spec: PluginSpec<TOptions, TDeps>,
): PluginDefinition<TOptions, TDeps> {
  if (!PLUGIN_ID_PATTERN.test(spec.id)) {
    throw new TypeError(`Cannot define plugin "${spec.id}": id must match ${PLUGIN_ID_PATTERN}`);
  }
  return Object.freeze({ ...spec, $$type: "@cts-runtime/plugin", apiVersion: PLUGIN_API_VERSION });
}
