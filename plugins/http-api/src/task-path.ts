/** @module Extracts the task name from `/v1/tasks/{name}` or `/v1/status/tasks/{name}` paths. */
import { HttpError } from "./api-errors.ts";

/**
 * The decoded remainder of `path` after `prefix` (e.g. `/v1/tasks/`). A name holding `/` is a
 * nested path CTS rejects with 400; an empty remainder means "no name" (the collection).
 */
export function taskNameFromPath(path: string, prefix: string): string {
  const raw = path.slice(prefix.length);
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `invalid task name in path '${path}': bad percent-encoding`);
  }
  if (name.includes("/")) {
    throw new HttpError(400, `unsupported path '${path}': a task name cannot contain '/'`);
  }
  return name;
}
