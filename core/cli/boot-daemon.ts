/**
 * @module Config → logging → kernel init → registry checks → start, with CTS's exit codes for each
 * failure. Nothing starts unless the whole config (including every plugin's options) is valid.
 */
import { ExitCode, type CliIo } from "./command.ts";
import type { ConfigPath } from "./config-paths.ts";
import { loadConfig } from "../config/load-config.ts";
import { isConfigError } from "../config/config-error.ts";
import { checkRegisteredNames } from "../config/check-registered-names.ts";
import { createKernel, type Kernel } from "../kernel/kernel.ts";
import { createLogSink, type LogSink } from "../logging/log-sink.ts";
import { parseLogLevel } from "../logging/log-level.ts";
import { writeLogLine } from "../runtime/process-io.ts";
import {
  conditionRegistryToken, type CtsConfig, driverRegistryToken, errorMessage, isCtsError, type Logger,
  moduleInputRegistryToken, type PluginDefinition, type RunOptions, type Shutdown,
} from "../plugin-api/mod.ts";
import { VERSION } from "../version.ts";

export interface BootOptions {
  readonly configPaths: readonly ConfigPath[];
  readonly runOptions: RunOptions;
  readonly io: CliIo;
  readonly shutdown: Shutdown;
  readonly plugins?: readonly PluginDefinition[];
}

export interface BootedDaemon {
  readonly kernel: Kernel;
  readonly config: CtsConfig;
  readonly logger: Logger;
  readonly logSink: LogSink;
}

/** Returns the running daemon, or the exit code to end with (the reason is already printed). */
export async function bootDaemon(options: BootOptions): Promise<BootedDaemon | number> {
  const { io } = options;
  let loaded;
  try {
    loaded = await loadConfig({ paths: [...options.configPaths], env: io.env, cwd: io.cwd });
  } catch (error) {
    io.err(`==> Error: ${errorMessage(error)}\n`);
    return isConfigError(error) ? ExitCode.configError : ExitCode.runtimeError;
  }
  const config = loaded.config;
  const logSink = createLogSink({
    level: parseLogLevel(config.log_level) ?? "INFO",
    json: config.log_json,
    write: writeLogLine,
  });
  const logger = logSink.logger("ctrl");
  logger.info(`cts-runtime v${VERSION} starting`, { mode: options.runOptions.mode, files: config.sources.join(",") });

  let kernel: Kernel;
  try {
    kernel = await createKernel({
      config,
      runOptions: options.runOptions,
      logSink,
      shutdown: options.shutdown,
      plugins: [...(options.plugins ?? [])],
      httpListen: options.runOptions.mode === "daemon" ? httpListenOf(config) : false,
    });
    await kernel.init();
  } catch (error) {
    io.err(`==> Error: ${errorMessage(error)}\n`);
    return isCtsError(error) && error.code !== "CTS_ERR_PLUGIN_INIT" ? ExitCode.configError : ExitCode.runtimeError;
  }

  const issues = checkRegisteredNames(loaded, {
    drivers: kernel.resolve(driverRegistryToken).names(),
    conditions: kernel.resolve(conditionRegistryToken).names(),
    moduleInputs: kernel.resolve(moduleInputRegistryToken).names(),
  });
  if (issues.length > 0) {
    io.err(`==> Error: invalid configuration:\n${issues.map((issue) => `  - ${issue.file}: ${issue.path}: ${issue.message}`).join("\n")}\n`);
    await kernel.stop().catch(() => {});
    return ExitCode.configError;
  }

  try {
    await kernel.start();
  } catch (error) {
    logger.error("cannot start", { error: errorMessage(error) });
    io.err(`==> Error: ${errorMessage(error)}\n`);
    await kernel.stop().catch(() => {});
    return isCtsError(error) && error.code === "CTS_ERR_DRIVER_BINARY" ? ExitCode.driverError : ExitCode.runtimeError;
  }
  return { kernel, config, logger, logSink };
}

function httpListenOf(config: CtsConfig) {
  // CTS binds all interfaces on `port`.
  return { hostname: "0.0.0.0", port: config.port, tls: config.tls.enabled ? config.tls : undefined };
}
