/**
 * @module The API's "no such task" and "task exists" errors in CTS's own sentences
 * (controller/tasks_manager.go, api/task_create.go): CTS users' scripts match them, e.g. CTS's e2e
 * tests look for "does not exist or has not been initialized yet" in `task enable/disable` output.
 */
import { HttpError } from "../api-errors.ts";

/** 404 for a task name the daemon does not know. */
export function taskNotFound(name: string): HttpError {
  return new HttpError(404, `a task with name '${name}' does not exist or has not been initialized yet`);
}

/** 400 for a create whose task name is taken. */
export function taskAlreadyExists(name: string): HttpError {
  return new HttpError(400, `task with name ${name} already exists`);
}
