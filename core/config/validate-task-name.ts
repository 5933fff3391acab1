/**
 * @module Task name rules. A task name is an HCL identifier (CTS's rule) and also becomes a directory
 * name, a URL path segment and a Consul KV key part, so it must be one safe path segment.
 */

import { quoteValue } from "../plugin-api/mod.ts";

export const MAX_TASK_NAME_LENGTH = 128;

/** Letter or `_` first, then letters, digits, `_` and `-`: never `/`, `.`, `..`, spaces or control characters. */
const IDENTIFIER = /^[\p{L}_][\p{L}\p{Nd}_-]*$/u;

/** The reason `name` is not a valid task name, or `undefined` when it is valid. */
export function validateTaskName(name: unknown): string | undefined {
  if (typeof name !== "string") return "task name must be a string";
  if (name === "") return "task name must not be empty";
  if ([...name].length > MAX_TASK_NAME_LENGTH) {
    return `task name must be at most ${MAX_TASK_NAME_LENGTH} characters`;
  }
  if (!IDENTIFIER.test(name)) {
    return `task name ${quoteValue(name)} is not valid: it must start with a letter or "_" ` +
      `and contain only letters, digits, "_" and "-"`;
  }
  return undefined;
}
