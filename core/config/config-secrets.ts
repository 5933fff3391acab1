/**
 * @module The secrets a configuration holds, for the daemon's secret masker: every value that
 * redaction hides where config is shown (redact.ts: the `writeOnly` fields, secret-named keys of
 * provider blocks, the driver block and plugin options), and every value a `{{ env "X" }}` template
 * put into the config (provider arguments, the driver's template fields, the API token).
 */
import type { CtsConfig } from "../plugin-api/mod.ts";
import { isSecretKey, SECRET_PATHS } from "./redact.ts";

export interface ConfigSecret {
  readonly value: string;
  /** Where it came from, for diagnostics (`consul.token`, `env:AWS_SECRET`): never the value. */
  readonly source: string;
}

type Json = Record<string, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

const ENV_TEMPLATE = /\{\{-?\s*env\s+"([^"]*)"\s*-?\}\}/g;

/** The secrets of a finished config: what redaction hides (the kernel adds them to its masker). */
export function configSecrets(config: CtsConfig): ConfigSecret[] {
  const found: ConfigSecret[] = [];
  for (const path of SECRET_PATHS) {
    const value = valueAt(config, path);
    // A `{{ with secret }}` template is not the secret: whoever renders it adds the value.
    if (typeof value === "string" && value !== "" && !value.includes("{{")) found.push({ value, source: path });
  }
  config.terraform_providers.forEach((provider) => {
    secretKeyValues({ ...provider.arguments, ...provider.task_env }, `terraform_provider.${provider.id}`, found);
  });
  secretKeyValues(config.driver.options, `driver.${config.driver.name}`, found);
  for (const plugin of config.plugins) secretKeyValues(plugin.options, `plugin.${plugin.name}`, found);
  return found;
}

/**
 * The values `{{ env "X" }}` templates put into the config, whatever the key (CTS users keep
 * credentials out of files this way); `raw` is the merged config as written.
 */
export function envTemplateSecrets(raw: Json, env: Env): ConfigSecret[] {
  const names = ["terraform_provider", "driver", "api"].flatMap((key) => envTemplateNames(raw[key]));
  return [...new Set(names)].flatMap((name) => (env[name] ? [{ value: env[name]!, source: `env:${name}` }] : []));
}

function valueAt(root: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (typeof node === "object" && node !== null ? (node as Json)[key] : undefined), root);
}

function secretKeyValues(value: unknown, at: string, found: ConfigSecret[]): void {
  if (Array.isArray(value)) {
    for (const item of value) secretKeyValues(item, at, found);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (isSecretKey(key) && typeof item === "string" && item !== "" && !item.includes("{{")) found.push({ value: item, source: `${at}.${key}` });
    else secretKeyValues(item, `${at}.${key}`, found);
  }
}

function envTemplateNames(value: unknown): string[] {
  if (typeof value === "string") return [...value.matchAll(ENV_TEMPLATE)].map((match) => match[1]!);
  if (Array.isArray(value)) return value.flatMap(envTemplateNames);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(envTemplateNames);
  return [];
}
