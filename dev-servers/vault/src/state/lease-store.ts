/**
 * @module Leases of dynamic secrets, on the server's clock: issued with a TTL and a maximum TTL,
 * renewed up to that maximum, revoked when asked or when they expire. An expired lease is revoked
 * at the next sweep (every request, and a timer of the server's), which runs its owner's revocation
 * (the Consul engine's: its token stops working), as Vault's expiration manager does.
 */
import { badRequest } from "../http/vault-answer.ts";
import { newAccessor } from "./ids.ts";
import { vaultTimestamp } from "./vault-time.ts";

export interface Lease {
  readonly id: string;
  readonly renewable: boolean;
  readonly issuedMs: number;
  /** Seconds asked for at issue: what a renewal without an increment extends by. */
  readonly ttl: number;
  /** No renewal reaches past this. */
  readonly maxExpiresMs: number;
  expiresMs: number;
  lastRenewalMs: number | undefined;
}

export interface NewLease {
  /** The path it was read at (`consul/creds/cts`): the id starts with it, as in Vault. */
  readonly path: string;
  readonly ttl: number;
  readonly maxTtl: number;
  readonly renewable: boolean;
  /** Ends what the lease stands for (a token's validity); runs once, at revocation or expiry. */
  readonly revoke?: () => void;
}

export class LeaseStore {
  readonly #leases = new Map<string, { lease: Lease; revoke: (() => void) | undefined }>();
  readonly #clock: () => number;

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  issue(request: NewLease): Lease {
    const now = this.#clock();
    const maxExpiresMs = now + request.maxTtl * 1000;
    const lease: Lease = {
      id: `${request.path}/${newAccessor()}`, renewable: request.renewable, issuedMs: now, ttl: request.ttl,
      maxExpiresMs, expiresMs: Math.min(now + request.ttl * 1000, maxExpiresMs), lastRenewalMs: undefined,
    };
    this.#leases.set(lease.id, { lease, revoke: request.revoke });
    return lease;
  }

  /** The live lease, or Vault's 400 for one unknown, revoked or expired. */
  find(id: unknown): Lease {
    this.sweep();
    const entry = typeof id === "string" ? this.#leases.get(id) : undefined;
    if (!entry) throw badRequest("invalid lease");
    return entry.lease;
  }

  /** Extends by `increment` seconds (default: the TTL it was issued with), never past the maximum. */
  renew(id: unknown, increment: number | undefined): Lease {
    const lease = this.find(id);
    if (!lease.renewable) throw badRequest("lease is not renewable");
    const now = this.#clock();
    lease.expiresMs = Math.min(now + (increment && increment > 0 ? increment : lease.ttl) * 1000, lease.maxExpiresMs);
    lease.lastRenewalMs = now;
    return lease;
  }

  revoke(id: string): void {
    const entry = this.#leases.get(id);
    if (!entry) return;
    this.#leases.delete(id);
    entry.revoke?.();
  }

  /** Revokes every lease whose time is up. */
  sweep(): void {
    const now = this.#clock();
    for (const [id, { lease }] of this.#leases) if (lease.expiresMs <= now) this.revoke(id);
  }

  /**
   * The seconds granted by the lease's last issue or renewal: what Vault answers as `lease_duration`
   * then (not the time left a moment later, which a slow clock tick would round down).
   */
  granted(lease: Lease): number {
    return Math.round((lease.expiresMs - (lease.lastRenewalMs ?? lease.issuedMs)) / 1000);
  }

  remaining(lease: Lease): number {
    return Math.max(0, Math.floor((lease.expiresMs - this.#clock()) / 1000));
  }

  /** `sys/leases/lookup`'s data. */
  lookupData(lease: Lease): Record<string, unknown> {
    return {
      id: lease.id,
      issue_time: vaultTimestamp(lease.issuedMs),
      expire_time: vaultTimestamp(lease.expiresMs),
      last_renewal: lease.lastRenewalMs === undefined ? null : vaultTimestamp(lease.lastRenewalMs),
      renewable: lease.renewable,
      ttl: this.remaining(lease),
    };
  }
}
