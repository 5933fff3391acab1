/**
 * @module The templates CTS allows in the HCP Terraform token, the one driver field where CTS
 * resolves them: `{{ env "X" }}` is read from the daemon's environment when the options are read,
 * `{{ with secret "p" }}` from Vault by the driver (driver-factory.ts), which needs Vault configured.
 */
import type { BlockProblem, CtsConfig } from "../../../core/plugin-api/mod.ts";

/** `{{ env "X" }}` with Go template trim markers; an unset variable reads as "" (as in CTS). */
const ENV_TEMPLATE = /\{\{-?\s*env\s+"([^"]*)"\s*-?\}\}/g;
const SECRET_TEMPLATE = /\{\{-?\s*with\s+secret\s/;

/** The fields of the driver block whose templates this driver resolves (DriverFactory.templateFields). */
export const TEMPLATE_FIELDS: readonly string[] = ["token"];

export function resolveEnvTemplates(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(ENV_TEMPLATE, (_, name: string) => env[name] ?? "");
}

export function readsVault(token: string): boolean {
  return SECRET_TEMPLATE.test(token);
}

/** The block rule a schema cannot say: a token read from Vault needs a `vault` block (or VAULT_ADDR). */
export function tokenProblems(options: { readonly token?: string }, config: CtsConfig): BlockProblem[] {
  const token = options.token;
  if (typeof token !== "string" || !readsVault(token) || config.vault?.enabled === true) return [];
  return [{ path: "token", message: "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)" }];
}
