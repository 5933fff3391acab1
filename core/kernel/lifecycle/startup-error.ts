/**
 * @module The error a failed start-up reports: what failed (which plugin, which step), with its
 * cause chained, plus anything that also failed while the already-started plugins were stopped.
 */
import { CtsError, errorMessage } from "../../plugin-api/mod.ts";
import type { ShutdownFailure } from "./shutdown-stack.ts";

/**
 * @param action what could not be done, e.g. `initialize plugin "x"`, `start plugin "x"`,
 *   `serve HTTP on 127.0.0.1:8558`.
 */
export function startupError(action: string, cause: unknown, cleanupFailures: readonly ShutdownFailure[] = []): CtsError {
  let message = `Cannot ${action}: ${errorMessage(cause)}`;
  if (cleanupFailures.length > 0) {
    const lines = cleanupFailures.map((failure) => `\n  ${failure.label}: ${errorMessage(failure.error)}`);
    message += `\nwhile stopping the plugins already started, also:${lines.join("")}`;
  }
  return new CtsError("CTS_ERR_PLUGIN_INIT", message, { cause });
}
