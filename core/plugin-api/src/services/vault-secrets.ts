/**
 * @module Vault secrets for plugins: what `{{ with secret "path" }}` reads in a terraform_provider
 * block (and, later, a driver's token). Values read here are secrets: a plugin must not log them,
 * put them in an event or an error, or write them to a file.
 */

export interface VaultSecret {
  /** The answer's `data` (for KV v2: `{ data: {...}, metadata: {...} }`, as templates see it). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly leaseId: string;
  /** Seconds. */
  readonly leaseDuration: number;
  readonly renewable: boolean;
}

export interface VaultSecrets {
  /** False when no `vault {}` block (or VAULT_ADDR) configured Vault: every read then fails. */
  readonly enabled: boolean;
  /**
   * Reads `path` as consul-template does: with `params`, a write of those parameters (dynamic
   * secrets); a KV v2 path without `data/` is read through `data/`. Renewable leases are kept
   * alive until the daemon stops. Fails with a CtsError naming the path, never the value.
   */
  read(path: string, params: Readonly<Record<string, string>>): Promise<VaultSecret>;
}
