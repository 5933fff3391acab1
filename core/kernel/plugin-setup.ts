/**
 * @module Sets one plugin up: its scope, the services it provides (awaited here, since tsyringe
 * factories are synchronous), its lifecycle hooks, then its `init`. Shutdown steps are pushed as
 * soon as the thing they undo exists, so a failure half-way still cleans up what was made.
 */
import {
  CtsError, loggerToken, type HookOptions, type PluginContext, type PluginLifecycle, type ServiceFactory,
  type Token, type TokenMap,
} from "../plugin-api/mod.ts";
import type { LogSink } from "../logging/log-sink.ts";
import type { ScopedContainer } from "./container/scoped-container.ts";
import type { ShutdownStack } from "./lifecycle/shutdown-stack.ts";
import type { LoadedPlugin } from "./plugin-loader.ts";

/** Default for hooks that pass no `timeoutMs` (the contract's documented default). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

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
  /** Factories of plugin-scoped tokens, by token id: each consumer gets its own instance. */
  readonly pluginScopedFactories: Map<string, ServiceFactory>;
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

  for (const factory of provides) {
    if (factory.token.scope === "plugin") setup.pluginScopedFactories.set(factory.token.id, factory);
  }
  // Plugin-scoped services this plugin uses get an instance of its own, in its own scope.
  for (const token of tokensNeeded(plugin)) {
    const factory = setup.pluginScopedFactories.get(token.id);
    if (factory && !scope.has(token)) await createService(factory, scope, scope, id, setup);
  }
  for (const factory of provides) {
    if (factory.token.scope === "root") await createService(factory, scope, setup.root, id, setup);
  }

  const lifecycle: PluginLifecycle = {
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
  const ctx: PluginContext<unknown> = Object.freeze({ pluginId: id, options: setup.options, lifecycle, signal: setup.signal });
  await plugin.definition.init?.(resolveDeps(scope, plugin.definition.deps), ctx);
}

async function createService(
  factory: ServiceFactory,
  resolveIn: ScopedContainer,
  provideIn: ScopedContainer,
  pluginId: string,
  setup: PluginSetupContext,
): Promise<void> {
  const instance = await factory.create(resolveDeps(resolveIn, factory.deps as TokenMap));
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
