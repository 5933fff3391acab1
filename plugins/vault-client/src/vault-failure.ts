/**
 * @module Turns what node-vault throws into a CtsError that says what failed and why, in Vault's
 * own words (its `errors` list), and never carries a token or a secret value: only the path, the
 * status code and Vault's error text (which Vault itself keeps free of secrets).
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";

interface ApiResponseError {
  readonly message: string;
  readonly response?: { readonly statusCode?: number; readonly body?: { readonly errors?: readonly unknown[] } };
  readonly code?: string;
}

export function vaultFailure(what: string, address: string, error: unknown): CtsError {
  const failure = (error ?? {}) as ApiResponseError;
  const status = failure.response?.statusCode;
  if (status !== undefined) {
    const errors = (failure.response?.body?.errors ?? []).map(String).filter((text) => text !== "");
    const why = status === 404 && errors.length === 0 ? "no secret at this path" : errors.join("; ") || `HTTP ${status}`;
    return new CtsError("CTS_ERR_VAULT", `Cannot ${what}: Vault answered ${status}: ${why}`);
  }
  // A timed-out connection's message says which limit (dial_timeout, tls_handshake_timeout) ran out.
  const reason = failure.code === "ETIMEDOUT" && error instanceof Error ? error.message : failure.code ?? (error instanceof Error ? error.message : String(error));
  return new CtsError("CTS_ERR_VAULT", `Cannot ${what}: Vault at ${address} is unreachable (${reason})`);
}
