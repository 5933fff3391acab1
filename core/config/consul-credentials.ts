/**
 * @module Beyond CTS (CTS#825 "dynamically load arguments to the consul block"): the consul block's
 * credentials — `token`, `auth.username`, `auth.password` — may read Vault with `{{ with secret }}`
 * (the consul-client plugin renders them and follows their rotation). Any other template in the
 * block is refused, as CTS refuses templates outside terraform_provider blocks.
 */
import type { ConfigIssue } from "./config-error.ts";
import { hasSecretTemplate, TEMPLATE_PLACES, templatePaths } from "./template-syntax.ts";

/** Paths inside the consul block that may hold `{{ with secret }}`. */
export const CONSUL_SECRET_FIELDS: readonly string[] = ["token", "auth.username", "auth.password"];

/** Problems of templates in the consul block as written; paths are `consul.<field>`. */
export function consulTemplateIssues(rawConsul: unknown, vaultEnabled: boolean): Omit<ConfigIssue, "file">[] {
  const issues: Omit<ConfigIssue, "file">[] = [];
  for (const at of templatePaths(rawConsul)) {
    const path = `consul.${at}`;
    const field = at.replace(/\[\d+\]/g, "");
    if (!CONSUL_SECRET_FIELDS.includes(field)) {
      issues.push({ path, message: `${TEMPLATE_PLACES} (and {{ with secret }} in consul.${CONSUL_SECRET_FIELDS.join(", consul.")})` });
      continue;
    }
    const value = valueAt(rawConsul, at);
    if (!hasSecretTemplate(value)) issues.push({ path, message: "may hold {{ with secret \"path\" }}...{{ end }}, no other template" });
    else if (!vaultEnabled) issues.push({ path, message: "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)" });
  }
  return issues;
}

/** The string at a path such as `auth.password` or `auth[0].password` (HCL block syntax). */
function valueAt(root: unknown, path: string): string {
  let node = root;
  for (const key of path.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== "")) {
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return typeof node === "string" ? node : "";
}
