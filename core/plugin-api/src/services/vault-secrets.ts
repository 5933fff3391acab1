/**
 * @module Vault secrets for plugins: what `{{ with secret "path" }}` reads in a terraform_provider
 * block, the consul block's credentials, the API token and a driver's token. Values read here are
 * secrets: a plugin must not log them, put them in an event or an error, or write them to a file.
 */

export interface VaultSecret {
  /** The answer's `data` (for KV v2: `{ data: {...}, metadata: {...} }`, as templates see it). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly leaseId: string;
  /** Seconds. */
  readonly leaseDuration: number;
  readonly renewable: boolean;
  /**
   * The answer's `auth`, when the read made a token (`auth/token/create`):
   * templates print it as `.Auth.ClientToken`, `.Auth.Accessor`, `.Auth.LeaseDuration`, `.Auth.Renewable`.
   */
  readonly auth?: VaultSecretAuth;
}

export interface VaultSecretAuth {
  readonly clientToken: string;
  readonly accessor: string;
  readonly policies: readonly string[];
  readonly metadata: Readonly<Record<string, string>>;
  /** Seconds. */
  readonly leaseDuration: number;
  readonly renewable: boolean;
}

/**
 * A secret a template read changed in Vault. Names the path, never a value.
 * One change is one object: every listener of every template that reads the secret gets the same
 * one, so a listener that hears it through several templates can tell it is one change.
 */
export interface SecretRotation {
  /** The path as the template names it (`secret/app`, `database/creds/app`). */
  readonly path: string;
  /**
   * What moved: `version` (a KV v2 secret has a new version), `lease` (the secret's lease ended or
   * could not be renewed, so it was read again), `ttl` (a value without a renewable lease, such as a
   * non-renewable token, reached the end of its TTL and was read again), `changed` (a periodic check
   * found other data, e.g. a KV version 1 secret written anew).
   */
  readonly cause: "version" | "lease" | "ttl" | "changed";
  /** KV v2: the new version. */
  readonly version?: number;
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
  /**
   * Renders every `{{ with secret "<path>" ["k=v" ...] }}...{{ end }}` in `text` (consul-template's
   * language, as CTS users write it). Each distinct secret is read once per daemon, as CTS resolves
   * templates once at start. `where` names the place in errors (`terraform_provider "aws"`).
   */
  renderTemplate(text: string, where: string): Promise<string>;
  /**
   * Optional: watches the secrets `text`'s templates read (KV v2 versions, leases,
   * TTLs) and calls `listener` after one changed in Vault; from then on `renderTemplate` renders the
   * new value (the old one stays in the secret masker). Returns unsubscribe; a secret nobody watches
   * any more is no longer checked. A provider without it never rotates (CTS reads secrets once).
   */
  watchTemplate?(text: string, listener: (rotation: SecretRotation) => void): () => void;
}
