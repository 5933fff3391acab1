/**
 * @module The token auth method's state: the root token (never expires, not renewable) and the
 * service tokens it creates, with TTLs, renewal up to the maximum TTL, and revocation. An expired
 * token is gone, as in Vault: using it is "permission denied".
 */
import { badRequest, permissionDenied } from "../http/vault-answer.ts";
import { newAccessor, newToken } from "./ids.ts";
import { vaultTimestamp } from "./vault-time.ts";

/** Vault's system default and maximum TTL: 768h. */
export const SYSTEM_MAX_TTL_SECONDS = 768 * 3600;

export interface TokenRecord {
  readonly id: string;
  readonly accessor: string;
  readonly policies: readonly string[];
  readonly displayName: string;
  readonly meta: Readonly<Record<string, string>> | null;
  readonly path: string;
  readonly orphan: boolean;
  readonly renewable: boolean;
  readonly numUses: number;
  readonly createdMs: number;
  readonly creationTtl: number;
  readonly explicitMaxTtl: number;
  /** undefined: never expires (the root token). */
  expiresMs: number | undefined;
  lastRenewalMs: number | undefined;
}

export interface NewTokenRequest {
  readonly policies?: readonly string[];
  readonly ttl?: number;
  readonly explicitMaxTtl?: number;
  readonly renewable?: boolean;
  readonly displayName?: string;
  readonly meta?: Record<string, string>;
  readonly numUses?: number;
  readonly orphan?: boolean;
  readonly noDefaultPolicy?: boolean;
}

export class TokenStore {
  readonly #tokens = new Map<string, TokenRecord>();

  readonly #clock: () => number;

  constructor(rootToken: string, clock: () => number) {
    this.#clock = clock;
    this.#tokens.set(rootToken, {
      id: rootToken, accessor: newAccessor(), policies: ["root"], displayName: "root", meta: null,
      path: "auth/token/root", orphan: true, renewable: false, numUses: 0, createdMs: clock(),
      creationTtl: 0, explicitMaxTtl: 0, expiresMs: undefined, lastRenewalMs: undefined,
    });
  }

  /** The live record of a token, or "permission denied" for an unknown, revoked or expired one. */
  authenticate(id: string | undefined): TokenRecord {
    const token = id ? this.#tokens.get(id) : undefined;
    if (!token) throw permissionDenied();
    if (token.expiresMs !== undefined && token.expiresMs <= this.#clock()) {
      this.#tokens.delete(token.id);
      throw permissionDenied();
    }
    return token;
  }

  create(parent: TokenRecord, request: NewTokenRequest): TokenRecord {
    const now = this.#clock();
    const explicitMaxTtl = request.explicitMaxTtl ?? 0;
    const maxTtl = explicitMaxTtl > 0 ? Math.min(explicitMaxTtl, SYSTEM_MAX_TTL_SECONDS) : SYSTEM_MAX_TTL_SECONDS;
    const ttl = Math.min(request.ttl && request.ttl > 0 ? request.ttl : SYSTEM_MAX_TTL_SECONDS, maxTtl);
    const token: TokenRecord = {
      id: newToken(), accessor: newAccessor(),
      policies: tokenPolicies(parent, request),
      displayName: request.displayName ? `token-${request.displayName}` : "token",
      meta: request.meta ?? null, path: "auth/token/create", orphan: request.orphan ?? false,
      renewable: request.renewable ?? true, numUses: request.numUses ?? 0, createdMs: now,
      creationTtl: ttl, explicitMaxTtl, expiresMs: now + ttl * 1000, lastRenewalMs: undefined,
    };
    this.#tokens.set(token.id, token);
    return token;
  }

  /** Extends a token's TTL by `increment` seconds (default: its creation TTL), never past its max TTL. */
  renew(token: TokenRecord, increment: number | undefined): TokenRecord {
    if (token.expiresMs === undefined) return token; // the root token: nothing to extend
    if (!token.renewable) throw badRequest("lease is not renewable");
    const now = this.#clock();
    const maxTtl = token.explicitMaxTtl > 0 ? Math.min(token.explicitMaxTtl, SYSTEM_MAX_TTL_SECONDS) : SYSTEM_MAX_TTL_SECONDS;
    const latestExpiry = token.createdMs + maxTtl * 1000;
    token.expiresMs = Math.min(now + (increment && increment > 0 ? increment : token.creationTtl) * 1000, latestExpiry);
    token.lastRenewalMs = now;
    return token;
  }

  revoke(id: string): void {
    this.#tokens.delete(id);
  }

  find(id: string): TokenRecord | undefined {
    const token = this.#tokens.get(id);
    return token && (token.expiresMs === undefined || token.expiresMs > this.#clock()) ? token : undefined;
  }

  remainingTtl(token: TokenRecord): number {
    return token.expiresMs === undefined ? 0 : Math.max(0, Math.floor((token.expiresMs - this.#clock()) / 1000));
  }

  /** The `data` of a token lookup, field for field as Vault answers it. */
  lookupData(token: TokenRecord): Record<string, unknown> {
    return {
      accessor: token.accessor,
      creation_time: Math.floor(token.createdMs / 1000),
      creation_ttl: token.creationTtl,
      display_name: token.displayName,
      entity_id: "",
      expire_time: token.expiresMs === undefined ? null : vaultTimestamp(token.expiresMs),
      explicit_max_ttl: token.explicitMaxTtl,
      id: token.id,
      issue_time: vaultTimestamp(token.createdMs),
      ...(token.lastRenewalMs === undefined ? {} : { last_renewal: vaultTimestamp(token.lastRenewalMs), last_renewal_time: Math.floor(token.lastRenewalMs / 1000) }),
      meta: token.meta,
      num_uses: token.numUses,
      orphan: token.orphan,
      path: token.path,
      policies: token.policies,
      renewable: token.renewable,
      ttl: this.remainingTtl(token),
      type: "service",
    };
  }

  /** The `auth` block of a create or renew answer. */
  authData(token: TokenRecord): Record<string, unknown> {
    return {
      client_token: token.id,
      accessor: token.accessor,
      policies: token.policies,
      token_policies: token.policies,
      metadata: token.meta,
      lease_duration: this.remainingTtl(token),
      renewable: token.renewable && token.expiresMs !== undefined,
      entity_id: "",
      token_type: "service",
      orphan: token.orphan,
      mfa_requirement: null,
      num_uses: token.numUses,
    };
  }
}

/** A child inherits its parent's policies unless given its own; "default" is added unless refused. */
function tokenPolicies(parent: TokenRecord, request: NewTokenRequest): string[] {
  const asked = request.policies && request.policies.length > 0 ? [...request.policies] : [...parent.policies];
  if (asked.includes("root")) return ["root"];
  if (!request.noDefaultPolicy && !asked.includes("default")) asked.push("default");
  return [...new Set(asked)].sort();
}
