/**
 * @module Sets one plugin up: its scope, the services it provides (awaited here, since tsyringe
 * factories are synchronous, and given the plugin's lifecycle), then its `init`. Shutdown steps are pushed as
 * soon as the thing they undo exists, so a failure half-way still cleans up what was made.
 */
import {
  CtsError, loggerToken, type HookOptions, type PluginContext, type PluginLifecycle, type ServiceContext,
  type ServiceFactory, type Token, type TokenMap,
} from "../plugin-api/mod.ts";
import type { LogSink } from "../logging/log-sink.ts";
import type { ScopedContainer } from "./container/scoped-container.ts";
import type { ShutdownStack } from "./lifecycle/shutdown-stack.ts";
import type { LoadedPlugin } from "./plugin-loader.ts";

/** Default for hooks that pass no `timeoutMs` (the contract's documented default). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

export interface ScopedFactory {
  readonly factory: ServiceFactory;
  /** The providing plugin's options, handed to the factory when a consumer's instance is made. */
  readonly options: unknown;
}

export interface StartHook {
  readonly pluginId: string;
  readonly run: () => void | Promise<void>;
  readonly timeoutMs: number;
}

export interface PluginSetupContext {
  readonly root: ScopedContainer;
  readonly logSink: LogSink;
  readonly options: unknown;
  readonly signal: AbortSignal;
  /** Factories of plugin-scoped tokens (with their provider's options), by token id: each consumer gets its own instance. */
  readonly pluginScopedFactories: Map<string, ScopedFactory>;
  readonly startHooks: StartHook[];
  readonly stopHooks: ShutdownStack;
  readonly disposals: ShutdownStack;
  /** True once start hooks began; registering a start hook after that is a bug in the plugin. */
  readonly started: () => boolean;
}

/** Every token a plugin needs: its own deps and those of its service factories. */
export function tokensNeeded(plugin: LoadedPlugin): Token<unknown>[] {
  const { deps, provides = [] } = plugin.definition;
  return [...Object.values(deps), ...provides.flatMap((factory) => Object.values(factory.deps as TokenMap))];
}

export async function setUpPlugin(plugin: LoadedPlugin, setup: PluginSetupContext): Promise<void> {
  const { id, provides = [] } = plugin.definition;
  const scope = setup.root.createChild();
  scope.provide(loggerToken, setup.logSink.logger(plugin.definition.logName ?? id));

  // Services register hooks through the same lifecycle as their plugin, before its init does.
  const lifecycle = pluginLifecycle(id, setup);
  const serviceContext = (options: unknown): ServiceContext =>
    Object.freeze({ pluginId: id, options, lifecycle, signal: setup.signal });
  for (const factory of provides) {
    if (factory.token.scope === "plugin") {
      setup.pluginScopedFactories.set(factory.token.id, { factory, options: setup.options });
    }
  }
  // Plugin-scoped services this plugin uses get an instance of its own, in its own scope.
  for (const token of tokensNeeded(plugin)) {
    const provided = setup.pluginScopedFactories.get(token.id);
    if (provided && !scope.has(token)) {
      await createService(provided.factory, scope, scope, serviceContext(provided.options), setup);
    }
  }
  for (const factory of provides) {
    if (factory.token.scope === "root") await createService(factory, scope, setup.root, serviceContext(setup.options), setup);
  }

  const ctx: PluginContext<unknown> = Object.freeze({ pluginId: id, options: setup.options, lifecycle, signal: setup.signal });
  await plugin.definition.init?.(resolveDeps(scope, plugin.definition.deps), ctx);
}

/** Start/stop hooks registered for plugin `id` (by its init or by the services made while setting it up). */
function pluginLifecycle(id: string, setup: PluginSetupContext): PluginLifecycle {
  return {
    onStart(hook, options?: HookOptions) {
      if (setup.started()) {
        throw new CtsError("CTS_ERR_PLUGIN_INIT", `Cannot add a start hook to plugin "${id}": the kernel has already started`);
      }
      setup.startHooks.push({ pluginId: id, run: hook, timeoutMs: options?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS });
    },
    onStop(hook, options?: HookOptions) {
      setup.stopHooks.push({
        label: `stop hook of plugin "${id}"`,
        run: hook,
        timeoutMs: options?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      });
    },
  };
}

async function createService(
  factory: ServiceFactory,
  resolveIn: ScopedContainer,
  provideIn: ScopedContainer,
  ctx: ServiceContext,
  setup: PluginSetupContext,
): Promise<void> {
  const pluginId = ctx.pluginId;
  const instance = await factory.create(resolveDeps(resolveIn, factory.deps as TokenMap), ctx);
  provideIn.provide(factory.token, instance);
  const dispose = factory.dispose;
  if (dispose) {
    setup.disposals.push({
      label: `dispose of "${factory.token.id}" (plugin "${pluginId}")`,
      run: () => dispose.call(factory, instance),
      timeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
    });
  }
}

/** The deps object: each token replaced by its instance, looked up from `scope` outwards. */
export function resolveDeps(scope: ScopedContainer, deps: TokenMap): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [name, token] of Object.entries(deps)) resolved[name] = scope.resolve(token);
  return Object.freeze(resolved);
}
