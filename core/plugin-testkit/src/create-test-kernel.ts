/**
 * @module Boots a real kernel in-process with only the plugins a test names (no built-ins unless
 * asked), a log sink that keeps its lines, and a config with CTS's defaults.
 */
import type { CtsConfig, LogLevel, PluginDefinition, PluginReferenceConfig, RunOptions } from "@cts-runtime/plugin-api";
import { type BuiltinPlugin, createKernel, createLogSink, type Kernel, type KernelOptions } from "cts-runtime";
import { daemonRunOptions, testConfig } from "./test-config.ts";

export interface TestKernelOptions {
  /** Plugin definitions passed in directly. */
  readonly plugins?: readonly PluginDefinition[];
  /** Plugin blocks, as a config file would give them (a `source` path or package name loads it). */
  readonly pluginBlocks?: readonly PluginReferenceConfig[];
  readonly builtins?: readonly BuiltinPlugin[];
  readonly config?: CtsConfig;
  readonly runOptions?: RunOptions;
  /** Anything else the kernel takes (httpListen, shutdown, ...). */
  readonly kernel?: Partial<KernelOptions>;
  /** Start it (default) or only create it. */
  readonly start?: boolean;
  /** The log sink's level. @default "DEBUG" */
  readonly logLevel?: LogLevel;
  /** Where the log lines go (returned as `logs`), e.g. an array the test clears between steps. */
  readonly logs?: string[];
}

export interface TestKernel {
  readonly kernel: Kernel;
  /** Every log line written so far. */
  readonly logs: readonly string[];
}

export async function createTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const logs = options.logs ?? [];
  const base = options.config ?? testConfig();
  const config = options.pluginBlocks ? { ...base, plugins: [...base.plugins, ...options.pluginBlocks] } : base;
  const kernel = await createKernel({
    config,
    runOptions: options.runOptions ?? daemonRunOptions,
    logSink: createLogSink({ level: options.logLevel ?? "DEBUG", write: (line) => logs.push(line) }),
    builtins: options.builtins ?? [],
    plugins: options.plugins ?? [],
    ...options.kernel,
  });
  if (options.start ?? true) await kernel.start();
  return { kernel, logs };
}
