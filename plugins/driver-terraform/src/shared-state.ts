/**
 * @module The driver block's rule against the rest of the configuration: with `high_availability`,
 * instances take over each other's tasks, so the state must live where every instance reaches it,
 * never in a `backend "local"` on one machine.
 */
import type { BlockProblem, CtsConfig } from "../../../core/plugin-api/mod.ts";

export function sharedStateProblems(options: Readonly<Record<string, unknown>>, config: CtsConfig): BlockProblem[] {
  const backend = options.backend as Readonly<Record<string, unknown>> | undefined;
  if (config.high_availability === undefined || backend === undefined || !("local" in backend)) return [];
  return [{ path: "backend.local", message: "cannot be used with high_availability: state must be shared" }];
}
