/**
 * @module What `validate` and `start` share: load the config, load and initialise every plugin it
 * names (nothing started, nothing contacted), and check every block against the registered drivers,
 * conditions and module inputs. Any problem is printed with file and field; the result is exit 15.
 */
import { ExitCode } from "./command.ts";
import type { CliIo } from "../runtime/cli-io.ts";
import type { ConfigPath } from "./config-paths.ts";
import { kernelErrorIssues } from "./kernel-error-issues.ts";
import { formatIssue, isConfigError, type ConfigIssue } from "../config/config-error.ts";
import { loadConfig, type LoadedConfig } from "../config/load-config.ts";
import type { BuiltinPlugin } from "../kernel/builtin-plugins.ts";
import { createKernel, type Kernel, type KernelOptions } from "../kernel/kernel.ts";
import type { LogSink } from "../logging/log-sink.ts";
import { SecretList } from "../kernel/secret-list.ts";
import {
  errorMessage, type CtsConfig, type PluginDefinition, type RunOptions, type SecretMasker, type Shutdown,
} from "../plugin-api/mod.ts";

export interface PrepareOptions {
  readonly configPaths: readonly ConfigPath[];
  readonly io: CliIo;
  readonly runOptions: RunOptions;
  /** `secrets` is the daemon's masker (secretMaskerToken), already holding the config's secrets. */
  readonly logSinkFor: (config: CtsConfig, secrets: SecretMasker) => LogSink;
  readonly shutdown?: Shutdown;
  /** Where the kernel serves HTTP, decided from the loaded config (daemon mode only). */
  readonly httpListenFor?: (config: CtsConfig) => Promise<KernelOptions["httpListen"]>;
  /** Extra in-process plugins (dev mode, tests). */
  readonly plugins?: readonly PluginDefinition[];
  /** Replaces the built-in plugin list (tests). */
  readonly builtins?: readonly BuiltinPlugin[];
}

export interface PreparedKernel {
  readonly loaded: LoadedConfig;
  readonly kernel: Kernel;
  readonly logSink: LogSink;
}

/** Returns the initialised (not started) kernel, or the exit code after printing why not. */
export async function prepareKernel(options: PrepareOptions): Promise<PreparedKernel | number> {
  const { io } = options;
  if (options.configPaths.length === 0) {
    io.err("==> Error: at least one -config-file or -config-dir is required\n");
    return ExitCode.requiredFlagMissing;
  }
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig({ paths: options.configPaths, env: io.env, cwd: io.cwd });
  } catch (error) {
    if (isConfigError(error)) return printIssues(io, error.issues);
    io.err(`==> Error: ${errorMessage(error)}\n`);
    return ExitCode.configError;
  }
  for (const warning of loaded.warnings) io.err(`==> Warning: ${formatIssue(warning)}\n`);

  // One masker for the kernel and the log: it knows the config's secrets before the first line.
  const secrets = new SecretList();
  for (const secret of loaded.templateSecrets) secrets.add(secret.value, secret.source);
  const logSink = options.logSinkFor(loaded.config, secrets);
  let kernel: Kernel | undefined;
  let issues: ConfigIssue[];
  try {
    const httpListen = (await options.httpListenFor?.(loaded.config)) ?? false;
    kernel = await createKernel({
      config: loaded.config,
      fileOf: loaded.fileOf,
      runOptions: options.runOptions,
      logSink,
      httpListen,
      environment: io.env,
      secrets,
      ...(options.shutdown ? { shutdown: options.shutdown } : {}),
      ...(options.plugins ? { plugins: [...options.plugins] } : {}),
      ...(options.builtins ? { builtins: options.builtins } : {}),
    });
    await kernel.init();
    issues = kernel.blockIssues(loaded.config, loaded.fileOf);
    if (issues.length === 0) {
      for (const warning of kernel.blockWarnings(loaded.config, loaded.fileOf)) io.err(`==> Warning: ${formatIssue(warning)}\n`);
    }
  } catch (error) {
    issues = kernelErrorIssues(error, loaded);
  }
  if (issues.length > 0) {
    await kernel?.stop().catch(() => {});
    return printIssues(io, issues);
  }
  return { loaded, kernel: kernel!, logSink };
}

function printIssues(io: CliIo, issues: readonly ConfigIssue[]): number {
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  io.err(`==> Error: the configuration is invalid (${count}):\n`);
  for (const issue of issues) io.err(`    ${formatIssue(issue)}\n`);
  return ExitCode.configError;
}
