/**
 * @module The kernel: loads and checks plugins (createKernel), sets them up in dependency order
 * (init), runs their start hooks and serves HTTP (start), and undoes it all in reverse (stop).
 * It knows nothing about Consul or Terraform; it never exits the process or handles signals.
 * Its interface is kernel-contract.ts; the blocks plugins own are checked and completed in kernel-blocks.ts.
 */
import type { CtsConfig, Logger, Token } from "../plugin-api/mod.ts";
import { CtsError, driverRegistryToken } from "../plugin-api/mod.ts";
import type { HttpServerHandle } from "../runtime/serve-http.ts";
import { serveApi } from "./lifecycle/serve-api.ts";
import { currentDirectory, parentDirectory } from "../runtime/file-system.ts";
import { builtinPlugins } from "./builtin-plugins.ts";
import { coreTokens, createCoreServices, createRecordingShutdown, type CoreServices } from "./core-services.ts";
import { ShutdownStack, shutdownError, type ShutdownFailure } from "./lifecycle/shutdown-stack.ts";
import { startupError } from "./lifecycle/startup-error.ts";
import { verifyConfiguredDriver } from "./lifecycle/verify-driver.ts";
import { withTimeout } from "./lifecycle/with-timeout.ts";
import { buildPluginGraph } from "./plugin-graph.ts";
import { loadPlugins, type LoadedPlugin } from "./plugin-loader.ts";
import { validatePluginOptions } from "./plugin-options.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import type { Kernel, KernelOptions, KernelState } from "./kernel-contract.ts";
import { completedByOwners, ownedBlockIssues, ownedBlockWarnings } from "./kernel-blocks.ts";
import { setUpPlugin, tokensNeeded, type ScopedFactory, type StartHook } from "./plugin-setup.ts";

export type { Kernel, KernelOptions, KernelState } from "./kernel-contract.ts";

/** The config plugins receive: its tasks are completed by their blocks' owners at the end of init. */
type PendingConfig = { -readonly [K in keyof CtsConfig]: CtsConfig[K] };

/** Loads, checks and orders the plugins; nothing runs yet. Throws on any load, option or graph problem. */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const shutdown = options.shutdown ?? createRecordingShutdown();
  const config: PendingConfig = { ...options.config };
  const core = createCoreServices({
    config,
    runOptions: options.runOptions,
    shutdown,
    ...(options.processRunner ? { processRunner: options.processRunner } : {}),
    ...(options.fileSystem ? { fileSystem: options.fileSystem } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const firstSource = options.config.sources?.[0];
  const loaded = await loadPlugins({
    config: options.config,
    runOptions: options.runOptions,
    builtins: options.builtins ?? builtinPlugins,
    extra: options.plugins ?? [],
    baseDir: options.baseDir ?? (firstSource ? parentDirectory(core.fileSystem.resolve(firstSource)) : currentDirectory()),
    fileSystem: core.fileSystem,
  });
  const pluginOptions = validatePluginOptions(loaded, core.ajv);
  const graph = buildPluginGraph(
    loaded.map((plugin) => ({
      id: plugin.definition.id,
      needs: tokensNeeded(plugin),
      provides: (plugin.definition.provides ?? []).map((factory) => factory.token),
    })),
    coreTokens,
  );
  const byId = new Map(loaded.map((plugin) => [plugin.definition.id, plugin]));
  const ordered = graph.order.map((id) => byId.get(id)!);
  return new PluginKernel(options, core, ordered, pluginOptions, config);
}

class PluginKernel implements Kernel {
  #state: KernelState = "created";
  readonly #options: KernelOptions;
  readonly #core: CoreServices;
  readonly #ordered: readonly LoadedPlugin[];
  readonly #pluginOptions: ReadonlyMap<string, unknown>;
  readonly #config: PendingConfig;
  readonly #abort = new AbortController();
  readonly #startHooks: StartHook[] = [];
  readonly #stopHooks = new ShutdownStack();
  readonly #disposals = new ShutdownStack();
  readonly #pluginScopedFactories = new Map<string, ScopedFactory>();
  readonly #log: Logger;
  #startHooksBegan = false;
  #server: HttpServerHandle | undefined;
  #initializing: Promise<void> | undefined;
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  #unwinding: Promise<unknown> = Promise.resolve();

  constructor(
    options: KernelOptions, core: CoreServices, ordered: readonly LoadedPlugin[], pluginOptions: ReadonlyMap<string, unknown>,
    config: PendingConfig,
  ) {
    this.#options = options;
    this.#config = config;
    this.#core = core;
    this.#ordered = ordered;
    this.#pluginOptions = pluginOptions;
    this.#log = options.logSink.logger("kernel");
  }

  get state(): KernelState {
    return this.#state;
  }

  get plugins(): readonly { id: string; kind: string; source: string }[] {
    return this.#ordered.map(({ definition, source }) => ({ id: definition.id, kind: definition.kind, source }));
  }

  get httpUrl(): string | undefined {
    return this.#core.router.url;
  }

  resolve<T>(token: Token<T>): T {
    return this.#core.root.resolve(token);
  }

  blockIssues(config: CtsConfig, fileOf: (path: string) => string | undefined = () => undefined): ConfigIssue[] {
    return ownedBlockIssues(config, fileOf, this.#core);
  }

  blockWarnings(config: CtsConfig, fileOf: (path: string) => string | undefined = () => undefined): ConfigIssue[] {
    return ownedBlockWarnings(config, fileOf, this.#core);
  }

  init(): Promise<void> {
    this.#initializing ??= this.#init();
    return this.#initializing;
  }

  async #init(): Promise<void> {
    const timeoutMs = this.#options.initTimeoutMs ?? 60_000;
    for (const plugin of this.#ordered) {
      const id = plugin.definition.id;
      try {
        if (this.#abort.signal.aborted) throw new CtsError("CTS_ERR_PLUGIN_INIT", "the kernel is stopping");
        await withTimeout(() => setUpPlugin(plugin, {
          root: this.#core.root,
          logSink: this.#options.logSink,
          options: this.#pluginOptions.get(id),
          signal: this.#abort.signal,
          pluginScopedFactories: this.#pluginScopedFactories,
          startHooks: this.#startHooks,
          stopHooks: this.#stopHooks,
          disposals: this.#disposals,
          started: () => this.#startHooksBegan,
        }), timeoutMs, "CTS_ERR_PLUGIN_INIT", `initialize plugin "${id}"`);
        this.#log.debug("initialized plugin", { plugin: id, kind: plugin.definition.kind, source: plugin.source });
      } catch (error) {
        throw await this.#fail(`initialize plugin "${id}"`, error);
      }
    }
    // Every owner is registered now; plugins read tasks from start on (kernel-blocks.ts).
    Object.freeze(Object.assign(this.#config, completedByOwners(this.#options.config, this.#core, this.#options.fileOf)));
    this.#state = "initialized";
  }

  start(): Promise<void> {
    if (this.#starting) return Promise.reject(new CtsError("CTS_ERR_PLUGIN_INIT", "Cannot start the kernel: start() was already called"));
    this.#starting = this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    const began = Date.now();
    await this.init();
    if (this.#state !== "initialized") {
      throw new CtsError("CTS_ERR_PLUGIN_INIT", `Cannot start the kernel: it is ${this.#state}`);
    }
    for (const registry of this.#core.registries) registry.freeze();
    const driverName = this.#options.config.driver.name;
    try {
      const drivers = this.#core.root.resolve(driverRegistryToken);
      await verifyConfiguredDriver(this.#config, drivers, this.#abort.signal, this.#log);
    } catch (error) {
      throw await this.#fail(`verify driver "${driverName}"`, error);
    }
    this.#assertNotStopped();
    this.#startHooksBegan = true;
    for (const hook of this.#startHooks) {
      this.#assertNotStopped();
      try {
        await withTimeout(hook.run, hook.timeoutMs, "CTS_ERR_PLUGIN_INIT", `run the start hook of plugin "${hook.pluginId}"`);
      } catch (error) {
        throw await this.#fail(`start plugin "${hook.pluginId}"`, error);
      }
    }
    this.#assertNotStopped();
    const listen = this.#options.httpListen;
    if (listen && this.#core.router.hasMounts) {
      try {
        const server = await serveApi(this.#config, listen, this.#core.router, this.#core.root, this.#core.secrets, this.#log);
        if (this.#stopping) {
          // stop() ran while the server was coming up, so it had nothing to close yet.
          await server.close();
          this.#assertNotStopped();
        }
        this.#server = server;
        this.#core.router.setUrl(server.url);
      } catch (error) {
        throw await this.#fail(`serve HTTP on ${listen.hostname}:${listen.port}`, error);
      }
    }
    this.#state = "running";
    this.#log.info("started", { plugins: this.#ordered.length, duration_ms: Date.now() - began, ...(this.#server ? { address: this.#server.url } : {}) });
  }

  /** stop() during start(): start gives up (stop already undoes what was set up). */
  #assertNotStopped(): void {
    if (this.#stopping) throw new CtsError("CTS_ERR_PLUGIN_INIT", "Cannot start the kernel: it was stopped while starting");
  }

  /** Idempotent: every call returns the same promise; rejects once with every failure of the stop. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    if (this.#state === "created") {
      this.#abort.abort();
      this.#state = "stopped";
      return;
    }
    const failed = this.#state === "failed";
    if (!failed) this.#state = "stopping";
    const failures = await this.#unwind();
    if (!failed) this.#state = "stopped";
    this.#log.info("stopped", { failures: failures.length });
    if (failures.length > 0) throw shutdownError(failures);
  }

  /** Records the failure, stops what already started, and returns the error to throw. */
  async #fail(action: string, cause: unknown): Promise<CtsError> {
    // A stop() that interrupted start-up owns the state; otherwise start-up failed.
    if (!this.#stopping) this.#state = "failed";
    const failures = await this.#unwind();
    return startupError(action, cause, failures);
  }

  /** Abort, close HTTP, stop hooks (reverse), disposals (reverse); serialised so late steps still run. */
  #unwind(): Promise<ShutdownFailure[]> {
    const run = this.#unwinding.then(async () => {
      this.#abort.abort();
      const failures: ShutdownFailure[] = [];
      const server = this.#server;
      this.#server = undefined;
      if (server) {
        try {
          await server.close();
        } catch (error) {
          failures.push({ label: "closing the HTTP server", error });
        }
        this.#core.router.setUrl(undefined);
      }
      failures.push(...await this.#stopHooks.unwind());
      failures.push(...await this.#disposals.unwind());
      return failures;
    });
    this.#unwinding = run;
    return run;
  }
}
