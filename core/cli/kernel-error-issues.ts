/**
 * @module Attributes a kernel set-up failure (a plugin that cannot load, or whose options are
 * wrong) to the `plugin` blocks and files it came from, so the user sees file and field.
 */
import type { ConfigIssue } from "../config/config-error.ts";
import type { LoadedConfig } from "../config/load-config.ts";
import { errorMessage, isCtsError } from "../plugin-api/mod.ts";

export function kernelErrorIssues(error: unknown, loaded: LoadedConfig): ConfigIssue[] {
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
