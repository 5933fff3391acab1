/**
 * @module Vault's answer shapes: every JSON answer carries the same envelope (request id, lease
 * fields, data, auth, warnings), and every error is `{"errors": [...]}` with Vault's status code.
 * Clients such as hvac pick their exception by status code and show the `errors` list.
 */

/** An error answer, thrown by engines and routes and turned into Vault's error body by the app. */
export class VaultError extends Error {
  readonly status: number;
  readonly errors: readonly string[];
  /** Fields beside `errors` (a deleted KV v2 version's metadata, a warning). */
  readonly extra: Record<string, unknown>;

  constructor(status: number, errors: readonly string[], extra: Record<string, unknown> = {}) {
    super(errors.join("; ") || `HTTP ${status}`);
    this.status = status;
    this.errors = errors;
    this.extra = extra;
  }
}

export const permissionDenied = (): VaultError => new VaultError(403, ["permission denied"]);
/** Vault answers a missing secret with 404 and an empty errors list. */
export const notFound = (): VaultError => new VaultError(404, []);
export const badRequest = (message: string): VaultError => new VaultError(400, [message]);
export const unsupportedPath = (): VaultError => new VaultError(405, ["1 error occurred:\n\t* unsupported operation\n\n"]);
export const noHandler = (path: string): VaultError => new VaultError(404, [`no handler for route "${path}". route entry not found.`]);

/** What an engine or route returns: `undefined` is 204 No Content. */
export type VaultAnswer = VaultBody | undefined;

export interface VaultBody {
  readonly data?: unknown;
  readonly auth?: unknown;
  /** A dynamic secret's lease (`consul/creds/x/<id>`), renewed and revoked through `sys/leases/`. */
  readonly leaseId?: string;
  readonly leaseDuration?: number;
  readonly renewable?: boolean;
  readonly warnings?: readonly string[];
  readonly mountType?: string;
  /** Some answers (sys/health, sys/seal-status) are bare objects without the envelope. */
  readonly bare?: Record<string, unknown>;
  readonly status?: number;
}

const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" };

export function toResponse(answer: VaultAnswer): Response {
  if (answer === undefined) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  const body = answer.bare ?? {
    request_id: crypto.randomUUID(),
    lease_id: answer.leaseId ?? "",
    renewable: answer.renewable ?? false,
    lease_duration: answer.leaseDuration ?? 0,
    data: answer.data ?? null,
    wrap_info: null,
    warnings: answer.warnings ?? null,
    auth: answer.auth ?? null,
    mount_type: answer.mountType ?? "",
  };
  return new Response(`${JSON.stringify(body)}\n`, { status: answer.status ?? 200, headers: JSON_HEADERS });
}

export function errorResponse(error: VaultError): Response {
  return new Response(`${JSON.stringify({ errors: error.errors, ...error.extra })}\n`, { status: error.status, headers: JSON_HEADERS });
}
