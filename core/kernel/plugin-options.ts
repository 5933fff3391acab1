/**
 * @module Validates every plugin's options against its `optionsSchema` (ajv: all errors,
 * defaults applied, strict), collects the problems of all plugins into one error, and hands each
 * plugin a deep-frozen copy so no plugin can change what another one sees.
 */
import type { Ajv, ErrorObject } from "ajv";
import { deepFreeze } from "../config/deep-freeze.ts";
import { CtsError, errorMessage } from "../plugin-api/mod.ts";
import { createPluginAjv } from "./plugin-ajv.ts";
import type { LoadedPlugin } from "./plugin-loader.ts";

/** Plugin id → validated, defaulted, frozen options; `ajv` is the kernel's, shared with block checks. */
export function validatePluginOptions(plugins: readonly LoadedPlugin[], ajv: Ajv = createPluginAjv()): Map<string, unknown> {
  const problems: string[] = [];
  const validated = new Map<string, unknown>();
  for (const plugin of plugins) {
    const { id, optionsSchema } = plugin.definition;
    // A copy: config objects are frozen, and useDefaults writes into what it validates.
    const options: unknown = structuredClone(plugin.options ?? {});
    if (optionsSchema === undefined) {
      if (Object.keys(options as object).length > 0) {
        problems.push(`plugin "${id}": takes no options, got ${Object.keys(options as object).map((k) => `"${k}"`).join(", ")}`);
      }
      validated.set(id, deepFreeze(options));
      continue;
    }
    let validate;
    try {
      validate = ajv.compile(optionsSchema);
    } catch (error) {
      problems.push(`plugin "${id}": its optionsSchema is not a valid strict JSON Schema: ${errorMessage(error)}`);
      continue;
    }
    if (validate(options)) {
      validated.set(id, deepFreeze(options));
    } else {
      for (const error of validate.errors ?? []) problems.push(`plugin "${id}": ${describe(error)}`);
    }
  }
  if (problems.length > 0) {
    throw new CtsError(
      "CTS_ERR_PLUGIN_OPTIONS",
      `Cannot use the plugin options: ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n  ${problems.join("\n  ")}`,
    );
  }
  return validated;
}

/** `options/a/b must be string`, naming the offending key for the two keywords whose message omits it. */
function describe(error: ErrorObject): string {
  const at = `options${error.instancePath}`;
  if (error.keyword === "additionalProperties") {
    return `${at} must not have the key "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  }
  if (error.keyword === "required") {
    return `${at} must have the key "${(error.params as { missingProperty: string }).missingProperty}"`;
  }
  return `${at} ${error.message ?? "is invalid"}`;
}
