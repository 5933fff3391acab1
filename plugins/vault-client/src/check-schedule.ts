/**
 * @module When a watched secret is read again, and whether what came back is a rotation. Follows
 * consul-template's rules where CTS users know them: a renewable lease is kept by renewals (the
 * lease keeper), a value with a TTL but no renewable lease (a non-renewable lease, a token made by
 * the read) is read again at 85–95 % of that TTL, and a static value (KV) at the check interval
 * (consul-template's default lease duration, 5 minutes), spread ±5 % so many daemons do not ask
 * Vault at once. A KV v2 secret has rotated when its version moved (or, written anew after a delete,
 * its data differs); anything else when its data did.
 */
import type { SecretRotation, VaultSecret } from "../../../core/plugin-api/mod.ts";

/** A spread factor in [0.85, 0.95). */
const spread = (random: () => number): number => 0.85 + random() * 0.1;

/** True for a value Vault made for this read (a lease, or a token): reading again makes a new one. */
export function isDynamic(secret: VaultSecret): boolean {
  return secret.leaseId !== "" || secret.auth !== undefined;
}

/**
 * Milliseconds until the secret is read again, or undefined when nothing is to be checked: the lease
 * keeper watches a renewable lease, and a write with parameters that Vault answered without a lease
 * (`transit/encrypt`) would answer differently each time without anything having rotated.
 */
export function nextCheckMs(secret: VaultSecret, wrote: boolean, checkIntervalMs: number, random: () => number = Math.random): number | undefined {
  if (secret.renewable && secret.leaseId !== "") return undefined;
  const ttl = secret.auth && secret.auth.leaseDuration > 0 ? secret.auth.leaseDuration : secret.leaseDuration;
  if (isDynamic(secret)) return ttl > 0 ? Math.max(1_000, ttl * 1000 * spread(random)) : undefined;
  if (wrote) return undefined;
  // A static value's TTL (KV version 1's 768 h, or its own `ttl`) is advice: the interval bounds it.
  return Math.min(ttl > 0 ? ttl * 1000 : Infinity, checkIntervalMs) * spread(random);
}

/** The KV v2 version of a secret read through `data/`, if it is one. */
export function kvVersion(secret: VaultSecret): number | undefined {
  const metadata = secret.data.metadata as { version?: unknown } | undefined;
  return typeof metadata?.version === "number" && typeof secret.data.data === "object" ? metadata.version : undefined;
}

/** What changed from `before` to `after`, or undefined when the value is the same. */
export function rotationOf(path: string, before: VaultSecret, after: VaultSecret): SecretRotation | undefined {
  const version = kvVersion(after);
  if (version !== undefined && kvVersion(before) !== undefined) {
    if (version !== kvVersion(before)) return { path, cause: "version", version };
    // The same version number with other data: the secret was deleted and written anew.
    return JSON.stringify(before.data.data) === JSON.stringify(after.data.data) ? undefined : { path, cause: "changed" };
  }
  if (fingerprint(before) === fingerprint(after)) return undefined;
  if (before.leaseId !== "") return { path, cause: "lease" };
  if (before.auth !== undefined) return { path, cause: "ttl" };
  return { path, cause: "changed" };
}

function fingerprint(secret: VaultSecret): string {
  return JSON.stringify([secret.data, secret.auth?.clientToken ?? ""]);
}
