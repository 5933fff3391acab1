/**
 * @module Reads a task block that did not come from a config file (an API request, a plugin's own
 * source) with the config loader's rules, so such a task means exactly what the same block in a file
 * means. The kernel provides it; plugins never reach core/config.
 */
import type { TaskConfig } from "../config.ts";

export interface TaskBuilder {
  /**
   * A task block in its HCL/JSON shape (before defaults) → a validated `TaskConfig` with the
   * config's defaults applied. Throws `CTS_ERR_CONFIG_INVALID` "Cannot create task: ..." listing
   * every problem with its field path (paths start at `task`).
   */
  build(block: Readonly<Record<string, unknown>>): TaskConfig;
  /** Why `name` is not a valid task name (CTS's identifier rule, one safe path segment), or undefined. */
  nameProblem(name: unknown): string | undefined;
}
