/**
 * @module `vault.address` (or VAULT_ADDR) as CTS's Vault client reads it: Go's url.Parse. A text it
 * cannot parse (`127.0.0.1:8200`: a path segment with a colon) stops CTS at start, so it is refused
 * here; one it parses with a scheme that is not http(s) (`vault.example:8200` reads as the scheme
 * "vault.example") passes CTS's start and fails every request, so it is accepted with a warning.
 */
import { type CtsConfig, quoteValue } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";

export function vaultAddressNotes(config: CtsConfig, fileOf: (path: string) => string | undefined): { issues: ConfigIssue[]; warnings: ConfigIssue[] } {
  const address = config.vault?.address ?? "";
  const note = (message: string): ConfigIssue[] => [{ file: fileOf("vault.address") ?? fileOf("vault") ?? "", path: "vault.address", message }];
  if (address === "" || /^https?:\/\/[^/]/i.test(address)) return { issues: [], warnings: [] };
  const example = `"https://${address.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")}"`;
  if (!URL.canParse(address)) {
    return { issues: note(`must be a URL such as ${example}, got ${quoteValue(address)}: CTS cannot parse it either and stops at start`), warnings: [] };
  }
  return { issues: [], warnings: note(`${quoteValue(address)} has no http:// or https:// scheme: CTS accepts it but reaches no Vault with it; write ${example}`) };
}
