/** @module Maps Consul answers and transport failures to `CtsError("CTS_ERR_CONSUL", "Cannot <verb> <what>: ...")`. */
import { CtsError } from "../../../core/plugin-api/mod.ts";
import type { ConsulResponse } from "./consul-transport.ts";

/** The HTTP status of a Consul answer that made the call fail; absent for transport failures. */
export type ConsulCtsError = CtsError & { readonly status?: number };

/** `Cannot read KV key "a": 403 Permission denied` — Consul's own text is kept (it names the missing ACL). */
export function responseError(action: string, response: ConsulResponse, redact: (text: string) => string): ConsulCtsError {
  const text = redact(response.text.trim().replace(/\s+/g, " ").slice(0, 500));
  const error = new CtsError("CTS_ERR_CONSUL", `Cannot ${action}: ${response.status}${text ? ` ${text}` : ""}`);
  return Object.assign(error, { status: response.status });
}

export function transportError(action: string, cause: unknown, redact: (text: string) => string): ConsulCtsError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new CtsError("CTS_ERR_CONSUL", `Cannot ${action}: ${redact(message)}`, { cause });
}

/** 5xx, 429 and transport failures are worth retrying; other 4xx are the caller's mistake. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
