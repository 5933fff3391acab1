/**
 * @module The one ajv setup the kernel checks plugin-owned JSON with: plugin options and every block
 * a plugin owns (driver, condition, module_input). Strict (a sloppy schema is the plugin's bug, found
 * at load), all errors at once, defaults applied, verbose (messages show the offending value).
 */
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { isGoDuration } from "../plugin-api/mod.ts";

// ajv-formats is CommonJS: under Node ESM the function sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

export function createPluginAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, verbose: true });
  addFormats(ajv);
  // The duration format config blocks use, so plugin-owned fields read durations as CTS does.
  ajv.addFormat("go-duration", { type: "string", validate: isGoDuration });
  return ajv;
}
