/**
 * @module Resolves `{{ env "NAME" }}` in terraform_provider blocks once, at load, as CTS does at
 * start-up: CTS's docs keep provider credentials out of config files this way, so leaving the
 * template text in place would hand Terraform the literal `{{ env ... }}` as a credential.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** `{{ env "X" }}` with Go template trim markers (`{{- ... -}}`); an unset variable is "" (as in CTS). */
const ENV_TEMPLATE = /\{\{-?\s*env\s+"([^"]*)"\s*-?\}\}/g;

/** A copy of `value` with every `{{ env "X" }}` inside its strings replaced by the variable's value. */
export function resolveEnvTemplates<T>(value: T, env: Env): T {
  if (typeof value === "string") return value.replace(ENV_TEMPLATE, (_, name: string) => env[name] ?? "") as T;
  if (Array.isArray(value)) return value.map((item) => resolveEnvTemplates(item, env)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveEnvTemplates(item, env)]),
    ) as T;
  }
  return value;
}
