/**
 * @module Config → logging → kernel init → registry checks → start, with CTS's exit codes for each
 * failure. Nothing starts unless the whole config (including every plugin's options) is valid.
 */
import { ExitCode } from "./command.ts";
import type { CliIo } from "../runtime/cli-io.ts";
import type { ConfigPath } from "./config-paths.ts";
import { prepareKernel } from "./prepare-kernel.ts";
import { redactConfig } from "../config/redact.ts";
import type { Kernel } from "../kernel/kernel.ts";
import type { LogSink } from "../logging/log-sink.ts";
import { createDaemonLog, type DaemonLog } from "./daemon-log.ts";
import { listFilesUnder, readTextFile } from "../runtime/config-files.ts";
import { apiTlsOptions } from "../http/api-tls-options.ts";
import { apiSettings, errorMessage, secretMaskerToken, isCtsError, type CtsConfig, type CtsErrorCode, type Logger, type PluginDefinition, type RunOptions, type Shutdown } from "../plugin-api/mod.ts";
import { VERSION } from "../version.ts";

export interface BootOptions {
  readonly configPaths: readonly ConfigPath[];
  readonly runOptions: RunOptions;
  readonly io: CliIo;
  readonly shutdown: Shutdown;
  readonly plugins?: readonly PluginDefinition[];
  /** Listen here instead of `api.address` (`cts-runtime dev` keeps its demo on loopback). */
  readonly listenAddress?: string;
}

export interface BootedDaemon {
  readonly kernel: Kernel;
  readonly config: CtsConfig;
  readonly logger: Logger;
  readonly logSink: LogSink;
  /** Call last: hands the syslog copy (`syslog { enabled }`) what it still holds. */
  readonly closeLog: () => Promise<void>;
}

/** Returns the running daemon, or the exit code to end with (the reason is already printed). */
export async function bootDaemon(options: BootOptions): Promise<BootedDaemon | number> {
  let log: DaemonLog | undefined;
  const prepared = await prepareKernel({
    ...options,
    logSinkFor: (config, secrets) => (log = createDaemonLog(config, secrets)).sink,
    httpListenFor: (config) =>
      (options.runOptions.mode === "daemon" ? httpListenOf(config, options.listenAddress) : Promise.resolve(false as const)),
  });
  const closeLog = () => log?.close() ?? Promise.resolve();
  if (typeof prepared === "number") {
    await closeLog();
    return prepared;
  }

  const { kernel, loaded, logSink } = prepared;
  const config = loaded.config;
  const logger = logSink.logger("ctrl");
  logger.info(`cts-runtime v${VERSION} starting`, { mode: options.runOptions.mode, files: config.sources.join(",") });
  for (const notice of loaded.notices) logger.info(notice.message, { field: notice.path, file: notice.file });
  // As CTS does at start-up: the whole effective config, secrets redacted, for debugging.
  logger.debug("configuration", { config: redactConfig(config) });
  try {
    await kernel.start();
  } catch (error) {
    logger.error("cannot start", { error: errorMessage(error) });
    options.io.err(`==> Error: ${kernel.resolve(secretMaskerToken).mask(errorMessage(error))}\n`);
    await kernel.stop().catch(() => {});
    await closeLog();
    return causedBy(error, "CTS_ERR_DRIVER_BINARY") ? ExitCode.driverError : ExitCode.runtimeError;
  }
  return { kernel, config, logger, logSink, closeLog };
}

/** The kernel wraps a plugin's start-up error; CTS's exit code depends on the root cause. */
function causedBy(error: unknown, code: CtsErrorCode): boolean {
  for (let current = error; current !== undefined; current = (current as { cause?: unknown }).cause) {
    if (isCtsError(current) && current.code === code) return true;
    if (typeof current !== "object" || current === null) return false;
  }
  return false;
}

async function httpListenOf(config: CtsConfig, listenAddress: string | undefined) {
  const tls = await apiTlsOptions(config.tls, { readText: readTextFile, listFiles: listFilesUnder });
  // CTS binds all interfaces on `port`; `api.address` (beyond CTS) picks one.
  const hostname = listenAddress ?? (apiSettings(config).address || "0.0.0.0");
  return { hostname, port: config.port, ...(tls ? { tls } : {}) };
}
