/**
 * @module Hides secrets wherever the configuration is shown (debug log, `validate`, status output).
 * Fixed secrets are the fields the schema marks `writeOnly: true`; inside free-form bodies (provider
 * arguments, task_env, driver and plugin options) any key that names a secret is hidden. TLS `key`
 * fields are file paths, not secrets, and stay visible.
 */
import type { CtsConfig } from "../plugin-api/mod.ts";

export const REDACTED = "<redacted>";

/** The fields marked `writeOnly: true` in schemas/config/cts-config.schema.json (a test keeps them in sync). */
export const SECRET_PATHS: readonly string[] = ["api.token", "consul.token", "consul.auth.password", "vault.token"];

/** Key names inside free-form bodies whose values are secrets: tokens, passwords, access keys, ... */
const SECRET_KEY = /(token|passw(or)?d|secret|credential|api_?key|access_?key|private_?key|conn_str|^key$|_key$)/i;

/** True when a free-form key (provider argument, env var name, option) names a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !/(_file|_path)$/i.test(key);
}

/** A copy of `config` with every secret replaced by `"<redacted>"` (empty values stay empty). */
export function redactConfig(config: CtsConfig): CtsConfig {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const path of SECRET_PATHS) redactPath(copy, path.split("."));
  const out = copy as unknown as CtsConfig;
  return {
    ...out,
    driver: { ...out.driver, options: redactBody(out.driver.options) as Record<string, unknown> },
    terraform_providers: out.terraform_providers.map((provider) => ({
      ...provider,
      arguments: redactBody(provider.arguments) as Record<string, unknown>,
      task_env: redactBody(provider.task_env) as Record<string, string>,
    })),
    plugins: out.plugins.map((plugin) => ({ ...plugin, options: redactBody(plugin.options) as Record<string, unknown> })),
  };
}

/** Replaces the values of secret-named keys anywhere under `value`. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [
    key,
    isSecretKey(key) && (typeof item === "string" || typeof item === "number") ? hide(item) : redactBody(item),
  ]));
}

function redactPath(target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return;
  if (rest.length === 0) target[head] = hide(target[head]);
  else if (typeof target[head] === "object" && target[head] !== null) {
    redactPath(target[head] as Record<string, unknown>, rest);
  }
}

function hide(value: unknown): unknown {
  return value === "" || value === undefined ? value : REDACTED;
}
