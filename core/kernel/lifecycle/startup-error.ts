/**
 * @module The error a failed start-up reports: what failed (which plugin, which step), with its
 * cause chained, plus anything that also failed while the already-started plugins were stopped.
 */
import { CtsError, errorMessage } from "../../plugin-api/mod.ts";
import { failureReason, type ShutdownFailure } from "./shutdown-stack.ts";

/**
 * @param action what could not be done, e.g. `initialize plugin "x"`, `start plugin "x"`,
 *   `serve HTTP on 127.0.0.1:8558`.
 */
export function startupError(action: string, cause: unknown, cleanupFailures: readonly ShutdownFailure[] = []): CtsError {
  const why = errorMessage(cause);
  // A timeout from withTimeout already reads "Cannot <action>: ..."; don't say it twice.
  let message = why.startsWith(`Cannot ${action}: `) ? why : `Cannot ${action}: ${why}`;
  if (cleanupFailures.length > 0) {
    const lines = cleanupFailures.map((failure) => `\n  ${failure.label}: ${failureReason(failure)}`);
    message += `\nwhile stopping the plugins already started, also:${lines.join("")}`;
  }
  return new CtsError("CTS_ERR_PLUGIN_INIT", message, { cause });
}
