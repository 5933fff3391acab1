/**
 * @module Checks that an imported module is a plugin definition this kernel can run: brand,
 * contract version, id and the shape of deps/provides. By brand, not `instanceof`, because a
 * third-party package may carry its own copy of the contract.
 */
import {
  CtsError, PLUGIN_API_VERSION, PLUGIN_ID_PATTERN, type PluginDefinition, type Token,
} from "../plugin-api/mod.ts";

const PLUGIN_BRAND = "@cts-runtime/plugin";

/** `default`, or `default.default` (a CommonJS module compiled from ESM), or the module itself. */
export function unwrapDefault(module: unknown): unknown {
  let value = module;
  for (let depth = 0; depth < 2; depth++) {
    if (isObject(value) && value.$$type === undefined && "default" in value) value = value.default;
  }
  return value;
}

/** Returns `value` as a definition, or throws `CTS_ERR_PLUGIN_INVALID` naming `origin`. */
export function assertPluginDefinition(value: unknown, origin: string): PluginDefinition {
  const invalid = (why: string) => new CtsError("CTS_ERR_PLUGIN_INVALID", `Cannot load plugin ${origin}: ${why}`);
  if (!isObject(value) || value.$$type !== PLUGIN_BRAND) {
    throw invalid(`the module does not default-export a plugin definition (definePlugin from @cts-runtime/plugin-api)`);
  }
  if (value.apiVersion !== PLUGIN_API_VERSION) {
    throw invalid(`it targets plugin API version ${String(value.apiVersion)}, this kernel runs version ${PLUGIN_API_VERSION}`);
  }
  if (typeof value.id !== "string" || !PLUGIN_ID_PATTERN.test(value.id)) {
    throw invalid(`its id ${JSON.stringify(value.id)} does not match ${PLUGIN_ID_PATTERN}`);
  }
  if (typeof value.kind !== "string") throw invalid(`plugin "${value.id}" has no kind`);
  if (!isObject(value.deps) || !Object.values(value.deps).every(isToken)) {
    throw invalid(`plugin "${value.id}" has deps that are not all tokens (createToken)`);
  }
  if (value.init !== undefined && typeof value.init !== "function") {
    throw invalid(`plugin "${value.id}" has an init that is not a function`);
  }
  const provides = value.provides ?? [];
  if (!Array.isArray(provides)) throw invalid(`plugin "${value.id}" has provides that is not an array`);
  for (const factory of provides) {
    if (!isObject(factory) || !isToken(factory.token) || typeof factory.create !== "function") {
      throw invalid(`plugin "${value.id}" provides something that is not a service factory (defineService)`);
    }
    if (!isObject(factory.deps) || !Object.values(factory.deps).every(isToken)) {
      throw invalid(`plugin "${value.id}" provides "${factory.token.id}" with deps that are not all tokens`);
    }
    if (factory.token.scope === "task") {
      throw invalid(`plugin "${value.id}" provides task-scoped "${factory.token.id}"; task services are created by the task engine`);
    }
  }
  return value as unknown as PluginDefinition;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isToken(value: unknown): value is Token<unknown> {
  return isObject(value) && typeof value.id === "string" && typeof value.key === "symbol" &&
    typeof value.scope === "string";
}
