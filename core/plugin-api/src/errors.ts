/** @module Coded errors. Every intentional error carries a stable `CTS_ERR_*` code. */

export type CtsErrorCode =
  | "CTS_ERR_CONFIG_INVALID"
  | "CTS_ERR_PLUGIN_LOAD"
  | "CTS_ERR_PLUGIN_INVALID"
  | "CTS_ERR_PLUGIN_OPTIONS"
  | "CTS_ERR_PLUGIN_DEPENDENCY"
  | "CTS_ERR_PLUGIN_INIT"
  | "CTS_ERR_PLUGIN_STOP"
  | "CTS_ERR_REGISTRY_FROZEN"
  | "CTS_ERR_DRIVER"
  | "CTS_ERR_DRIVER_BINARY"
  /** The task's state lock stayed held by someone else for the whole wait: retry later, not a broken task. */
  | "CTS_ERR_STATE_LOCKED"
  | "CTS_ERR_CONSUL"
  /** A process could not be started (descriptors, memory or process slots exhausted; no shell). */
  | "CTS_ERR_PROCESS"
  | "CTS_ERR_NOT_FOUND"
  | "CTS_ERR_CONFLICT"
  | "CTS_ERR_BAD_REQUEST"
  | "CTS_ERR_NOT_LEADER"
  | "CTS_ERR_TASK"
  | "CTS_ERR_VAULT";

export class CtsError extends Error {
  override readonly name: string = "CtsError";
  readonly code: CtsErrorCode;
  constructor(code: CtsErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Duck-typed: works across duplicated copies of this package, unlike `instanceof`. */
export function isCtsError(value: unknown): value is CtsError {
  return (
    typeof value === "object" && value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    (value as { code: string }).code.startsWith("CTS_ERR_")
  );
}

/** The message of any thrown value, for logs and event errors. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
