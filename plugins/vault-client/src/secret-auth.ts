/**
 * @module The `auth` block of a Vault answer (a read that made a token: `auth/token/create`) as a
 * `VaultSecretAuth`, which templates print as `.Auth.ClientToken` and friends (consul-template's names).
 */
import type { VaultSecretAuth } from "../../../core/plugin-api/mod.ts";

interface AuthAnswer {
  readonly client_token?: unknown;
  readonly accessor?: unknown;
  readonly policies?: unknown;
  readonly metadata?: unknown;
  readonly lease_duration?: unknown;
  readonly renewable?: unknown;
}

export function authOf(auth: AuthAnswer | null | undefined): VaultSecretAuth | undefined {
  if (typeof auth !== "object" || auth === null || typeof auth.client_token !== "string") return undefined;
  return {
    clientToken: auth.client_token,
    accessor: typeof auth.accessor === "string" ? auth.accessor : "",
    policies: Array.isArray(auth.policies) ? auth.policies.map(String) : [],
    metadata: typeof auth.metadata === "object" && auth.metadata !== null ? auth.metadata as Record<string, string> : {},
    leaseDuration: Number(auth.lease_duration ?? 0),
    renewable: auth.renewable === true,
  };
}
