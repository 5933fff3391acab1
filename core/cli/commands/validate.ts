/**
 * @module `cts-runtime validate`: loads the configuration and the plugins it names without starting
 * anything (no Consul, no Terraform), checks every driver/condition/module_input name and block
 * against the registered plugins, and prints what it found, or every problem (exit 15).
 */
import { ExitCode, type CliCommand, type CliIo } from "../command.ts";
import { configPathFlags, configPathsOf, type ConfigPath } from "../config-paths.ts";
import { loadConfig, type LoadedConfig } from "../../config/load-config.ts";
import { formatIssue, isConfigError, type ConfigIssue } from "../../config/config-error.ts";
import { validateAgainstFactories } from "../../config/check-registered-names.ts";
import { createKernel, type Kernel } from "../../kernel/kernel.ts";
import type { BuiltinPlugin } from "../../kernel/builtin-plugins.ts";
import { createLogSink } from "../../logging/log-sink.ts";
import {
  conditionRegistryToken, driverRegistryToken, errorMessage, isCtsError, moduleInputRegistryToken,
  type PluginDefinition, type Registry, type Named,
} from "../../plugin-api/mod.ts";

export interface ValidateOptions {
  readonly configPaths: readonly ConfigPath[];
  readonly io: CliIo;
  /** Extra in-process plugins (tests). */
  readonly plugins?: readonly PluginDefinition[];
  /** Replaces the built-in plugin list (tests). */
  readonly builtins?: readonly BuiltinPlugin[];
}

/** The function-level entry: returns the exit code; everything is printed to `io`. */
export async function runValidate(options: ValidateOptions): Promise<number> {
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

  // Plugins log at WARN and above only, so the report stays readable.
  const logSink = createLogSink({ level: "WARN", write: (line) => io.err(`${line}\n`) });
  let kernel: Kernel | undefined;
  let issues: ConfigIssue[];
  try {
    kernel = await createKernel({
      config: loaded.config,
      runOptions: { mode: "validate", inspectTasks: [], resetStorage: false },
      logSink,
      httpListen: false,
      ...(options.plugins ? { plugins: [...options.plugins] } : {}),
      ...(options.builtins ? { builtins: options.builtins } : {}),
    });
    await kernel.init();
    issues = validateAgainstFactories(loaded, {
      drivers: factories(kernel.resolve(driverRegistryToken)),
      conditions: factories(kernel.resolve(conditionRegistryToken)),
      moduleInputs: factories(kernel.resolve(moduleInputRegistryToken)),
    });
  } catch (error) {
    issues = kernelErrorIssues(error, loaded);
  } finally {
    await kernel?.stop().catch(() => {});
  }
  for (const warning of loaded.warnings) io.err(`==> Warning: ${formatIssue(warning)}\n`);
  if (issues.length > 0) return printIssues(io, issues);
  io.out(summary(loaded, kernel!));
  return ExitCode.ok;
}

function factories<T extends Named>(registry: Registry<T>): T[] {
  return registry.names().map((name) => registry.get(name)!);
}

function printIssues(io: CliIo, issues: readonly ConfigIssue[]): number {
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  io.err(`==> Error: the configuration is invalid (${count}):\n`);
  for (const issue of issues) io.err(`    ${formatIssue(issue)}\n`);
  return ExitCode.configError;
}

/**
 * A plugin that cannot load or whose options are wrong fails `createKernel`; the error names the
 * plugin, so it is attributed to the plugin blocks (and files) it mentions.
 */
function kernelErrorIssues(error: unknown, loaded: LoadedConfig): ConfigIssue[] {
  const message = errorMessage(error);
  const code = isCtsError(error) ? error.code : "";
  if (code === "CTS_ERR_PLUGIN_OPTIONS") {
    const perLine = optionIssues(message, loaded);
    if (perLine.length > 0) return perLine;
  }
  const field = code === "CTS_ERR_PLUGIN_OPTIONS" ? "options" : "source";
  const blocks = loaded.config.plugins.map((plugin, index) => ({ plugin, path: `plugin[${index}].${plugin.name}` }));
  const named = blocks.filter(({ plugin }) =>
    message.includes(`"${plugin.name}"`) || (plugin.source !== "" && message.includes(plugin.source))
  );
  const blamed = named.length > 0 ? named : code.startsWith("CTS_ERR_PLUGIN") ? blocks : [];
  if (blamed.length === 0) return [{ file: "", path: "", message }];
  return blamed.map(({ path }) => ({ file: loaded.fileOf(path) ?? "", path: `${path}.${field}`, message }));
}

/** The kernel lists option problems one a line: `plugin "<id>": options/<path> <message>`. */
function optionIssues(message: string, loaded: LoadedConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const line of message.split("\n")) {
    const match = /^\s*plugin "([^"]+)": options(\/\S*)? (.*)$/.exec(line);
    if (match === null) continue;
    const [, id, pointer = "", text] = match;
    const index = loaded.config.plugins.findIndex((plugin) => plugin.name === id);
    const block = index >= 0 ? `plugin[${index}].${id}` : "plugin";
    const field = pointer.split("/").filter((part) => part !== "").join(".");
    issues.push({
      file: loaded.fileOf(index >= 0 ? block : "plugin[0]") ?? "",
      path: `${block}.options${field ? `.${field}` : ""}`,
      message: index >= 0 ? text! : `plugin "${id}": ${text}`,
    });
  }
  return issues;
}

function summary(loaded: LoadedConfig, kernel: Kernel): string {
  const { config } = loaded;
  const lines = ["==> The configuration is valid", "", "    Files read:"];
  for (const file of config.sources) lines.push(`      ${file}`);
  lines.push("", `    Driver: ${config.driver.name}`, "", "    Plugins loaded:");
  for (const plugin of kernel.plugins) lines.push(`      ${plugin.id} (${plugin.kind}) from ${plugin.source}`);
  lines.push("", `    Tasks (${config.tasks.length}):`);
  const width = Math.max(0, ...config.tasks.map((task) => task.name.length));
  const conditionWidth = Math.max(0, ...config.tasks.map((task) => task.condition.type.length));
  for (const task of config.tasks) {
    const inputs = task.module_input.map((input) => input.type).join(", ");
    lines.push(
      `      ${task.name.padEnd(width)}  condition ${task.condition.type.padEnd(conditionWidth)}  driver ${task.driver}` +
        `${inputs ? `  module_input ${inputs}` : ""}${task.enabled ? "" : "  (disabled)"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const validateCommand: CliCommand = {
  name: "validate",
  summary: "Checks a configuration without starting anything",
  usage: [
    "Loads the configuration files and the plugins they name, and checks every block against the",
    "schemas and the registered drivers, conditions and module inputs. Nothing contacts Consul.",
    "Exits 0 when valid; prints every problem and exits 15 otherwise.",
  ].join("\n"),
  flags: [...configPathFlags],
  run(args, io) {
    return runValidate({ configPaths: configPathsOf(args), io });
  },
};

export default validateCommand;
