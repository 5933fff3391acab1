/**
 * @module `cts-runtime validate`: loads the configuration and the plugins it names without starting
 * anything (no Consul, no Terraform), checks every driver/condition/module_input name and block
 * against the registered plugins, and prints what it found, or every problem (exit 15).
 */
import { ExitCode, type CliCommand } from "../command.ts";
import type { CliIo } from "../../runtime/cli-io.ts";
import { configPathFlags, configPathsOf, type ConfigPath } from "../config-paths.ts";
import { prepareKernel } from "../prepare-kernel.ts";
import type { LoadedConfig } from "../../config/load-config.ts";
import type { BuiltinPlugin } from "../../kernel/builtin-plugins.ts";
import type { Kernel } from "../../kernel/kernel.ts";
import { createLogSink } from "../../logging/log-sink.ts";
import type { PluginDefinition } from "../../plugin-api/mod.ts";

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
  const prepared = await prepareKernel({
    ...options,
    runOptions: { mode: "validate", inspectTasks: [], resetStorage: false },
    // Plugins log at WARN and above only, so the report stays readable.
    logSinkFor: (_config, secrets) => createLogSink({ level: "WARN", write: (line) => io.err(`${line}\n`), secrets }),
  });
  if (typeof prepared === "number") return prepared;
  await prepared.kernel.stop().catch(() => {});
  io.out(summary(prepared.loaded, prepared.kernel));
  return ExitCode.ok;
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
