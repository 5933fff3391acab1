/**
 * @module The daemon's list of secrets and the one way to hide them. Every value a plugin learns
 * is secret (a value read from Vault, a token, a provider argument rendered from a template) is
 * added here when it is learnt; everything the daemon records or serves (captured Terraform
 * output, errors, events, run records, log lines, API answers) passes through `mask` first.
 */

/** What a masked secret is replaced with, everywhere. */
export const MASKED_SECRET = "<redacted>";

export interface SecretMasker {
  /**
   * Remembers `value` as a secret from now on. Its JSON-escaped and shell-quoted forms are hidden
   * too. Values shorter than 4 characters are not remembered: masking them would hide ordinary
   * text (`"on"`, `"1"`) and show where the secret is. `source` names where it came from in
   * diagnostics (`vault:secret/panos`, `consul.token`), never the value.
   */
  add(value: string, source: string): void;
  /** `text` with every known secret (and its escaped forms) replaced by `<redacted>`. */
  mask(text: string): string;
  /** A copy of `value` with every string in it (keys included) masked; other values as they are. */
  maskValue<T>(value: T): T;
  /** How many distinct secrets are known (diagnostics and tests; never the values). */
  readonly size: number;
}
