/**
 * @module HA compatibility checks: every instance must be able to run every stored task. Today that
 * means local module paths exist here. Failures are logged under `ha.compat`; the instance keeps running.
 */
import type { FileSystem, Logger, TaskStore } from "../../../core/plugin-api/mod.ts";

/** CTS re-checks every 5 minutes. */
export const COMPATIBILITY_CHECK_INTERVAL_MS = 5 * 60_000;

function isLocalModule(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith("/");
}

/** Returns the failures found (also logged). */
export async function checkCompatibility(store: TaskStore, files: FileSystem, logger: Logger): Promise<string[]> {
  const failures: string[] = [];
  for (const { config } of await store.listTasks()) {
    if (!isLocalModule(config.module)) continue;
    if (!(await files.isDirectory(files.resolve(config.module)))) {
      failures.push(`task "${config.name}": local module "${config.module}" does not exist on this instance`);
    }
  }
  for (const failure of failures) {
    logger.error("compatibility check failed", { error: `compatibility check failure: ${failure}` });
  }
  return failures;
}
