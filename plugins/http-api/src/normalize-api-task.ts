/**
 * @module API task → validated `TaskConfig`: the API's shape is turned into the config block shape,
 * then read by the kernel's TaskBuilder with the config loader's rules.
 */
import type { TaskBuilder, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { ApiBlocks } from "./api-blocks.ts";
import { apiTaskToRaw } from "./api-task-to-raw.ts";

/** Throws `CTS_ERR_CONFIG_INVALID` listing every problem of the task. */
export function normalizeApiTask(
  apiTask: Readonly<Record<string, unknown>>, builder: TaskBuilder, blocks: ApiBlocks = ApiBlocks.none,
): TaskConfig {
  return builder.build(apiTaskToRaw(apiTask, blocks));
}
