/** @module Maps Consul answers and transport failures to `CtsError("CTS_ERR_CONSUL", "Cannot <verb> <what>: ...")`. */
import { CtsError } from "../../../core/plugin-api/mod.ts";
import type { ConsulResponse } from "./consul-transport.ts";

/**
 * The HTTP status of a Consul answer that made the call fail (absent for transport failures), and
 * whether asking again cannot help (see `isPermanentAnswer`).
 */
export type ConsulCtsError = CtsError & { readonly status?: number; readonly permanent?: boolean };

/**
 * Consul answers these with 500 although no retry changes them: an unknown datacenter
 * (`structs.ErrNoDCPath`; a known datacenter without reachable servers says "Remote DC has no
 * server currently reachable" instead, which stays transient) and a filter that does not compile
 * (go-bexpr errors surface from the RPC layer as 500).
 */
const PERMANENT_500_TEXTS = ["No path to datacenter", "Failed to create boolean expression evaluator"];

/**
 * An answer that is an error of the query itself: any 4xx but 429 (400 `Invalid query parameter`,
 * 403 ACL denied, ...; CTS's `isResponseCodeRetryable` and hcat's view never retry a 400) and the
 * 500 texts above. Everything else — no answer, 429, other 5xx — is an outage to ride out.
 */
export function isPermanentAnswer(status: number, text: string): boolean {
  if (status >= 400 && status < 500) return status !== 429;
  if (status >= 500) return PERMANENT_500_TEXTS.some((known) => text.includes(known));
  return false;
}

/** 429, and 5xx other than the permanent texts: Consul is restarting, electing or rate-limiting. */
export function isTransientAnswer(status: number, text: string): boolean {
  return (status === 429 || status >= 500) && !isPermanentAnswer(status, text);
}

/**
 * `Cannot query /v1/kv/a: Unexpected response code: 403 Permission denied` — Consul's own text is
 * kept (it names the missing ACL). "Unexpected response code: <status>" is the Go API client's
 * wording, which CTS prints for every refused query; users' scripts and CTS's e2e tests match on it
 * (for KV queries it is all CTS shows).
 */
export function responseError(action: string, response: ConsulResponse, redact: (text: string) => string): ConsulCtsError {
  const text = redact(response.text.trim().replace(/\s+/g, " ").slice(0, 500));
  const error = new CtsError("CTS_ERR_CONSUL", `Cannot ${action}: Unexpected response code: ${response.status}${text ? ` ${text}` : ""}`);
  return Object.assign(error, { status: response.status, permanent: isPermanentAnswer(response.status, response.text) });
}

export function transportError(action: string, cause: unknown, redact: (text: string) => string): ConsulCtsError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new CtsError("CTS_ERR_CONSUL", `Cannot ${action}: ${redact(message)}`, { cause });
}
