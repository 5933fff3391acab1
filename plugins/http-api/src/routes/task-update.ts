/**
 * @module `PATCH /v1/tasks/{name}` with task fields (beyond CTS, whose PATCH takes only `enabled`):
 * each top-level field given replaces the task's (JSON merge patch at the top level; `null` puts a
 * field back to its default), and the result is validated exactly as a create. `?run=inspect`
 * answers the plan of the change and changes nothing; `?run=now` applies it at once. A body of
 * only `enabled` is CTS's request and keeps CTS's answers (task-routes.ts).
 */
import type { Context } from "hono";
import type { RunRequest, TaskConfig } from "../../../../core/plugin-api/mod.ts";
import { errorMessage, isCtsError } from "../../../../core/plugin-api/mod.ts";
import { apiError, HttpError, requestIdOf, statusOfEngineError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import type { TaskCreateRequest } from "../schemas/requests.schema.ts";
import type { TaskUpdateResponse } from "../schemas/task-changes.schema.ts";
import { inspectPlanBody } from "../plan-bodies.ts";
import type { ApiTask } from "../schemas/task.schema.ts";
import { taskNotFound } from "./cts-task-errors.ts";

export interface TaskUpdateTools {
  /** Validates a create body (throws a 400 HttpError); the same check as `POST /v1/tasks`. */
  readonly validateCreate: (body: unknown) => TaskCreateRequest;
  readonly represent: (task: TaskConfig) => ApiTask;
}

/** Fields that change when or how often a task runs, never what it applies. */
const SCHEDULING_FIELDS: readonly string[] = ["enabled", "buffer_period", "drift_detection"];

/**
 * A change of scheduling fields only: the task keeps every other field exactly as it is (as read
 * from its config file), so the engine sees that what it applies did not change.
 */
function withScheduling(current: TaskConfig, next: TaskConfig): TaskConfig {
  const { drift_detection: _drop, ...rest } = current;
  return {
    ...rest,
    enabled: next.enabled,
    buffer_period: next.buffer_period,
    buffer_period_configured: next.buffer_period_configured,
    ...(next.drift_detection ? { drift_detection: next.drift_detection } : {}),
  };
}

/** The task fields a PATCH may set: core's (as the API spells them) and those registered drivers add. */
const CORE_API_FIELDS: readonly string[] = [
  "name", "description", "enabled", "module", "version", "providers", "variables", "buffer_period", "drift_detection", "condition",
  "module_input",
];

/**
 * CTS's answer to keys it does not know (api/task.go decodeBody), sorted as CTS sorts them; a key is
 * known when it is a task field. Checked before anything else, as CTS does.
 */
export function unsupportedKeys(body: unknown, driverFields: Iterable<string>): HttpError | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const known = new Set([...CORE_API_FIELDS, ...driverFields]);
  const unknown = Object.keys(body).filter((key) => !known.has(key)).sort();
  return unknown.length > 0 ? new HttpError(400, `request body's JSON contains unsupported keys: ${unknown.join(", ")}`) : undefined;
}

/** True when the body is more than CTS's `{"enabled": ...}`: any other key makes it an update. */
export function isTaskUpdateBody(body: unknown): body is Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  return Object.keys(body).some((key) => key !== "enabled");
}

/**
 * The task with the body's top-level fields applied; `null` removes a field (its default applies).
 * Not a task yet: the caller checks the result as a create's body.
 */
export function mergeTaskFields(current: Readonly<Record<string, unknown>>, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function handleTaskUpdate(
  c: Context, ctx: RouteContext, tools: TaskUpdateTools, name: string, run: RunRequest, patch: Record<string, unknown>,
): Promise<Response> {
  const state = ctx.tasks.get(name);
  if (!state) throw taskNotFound(name);
  if (!ctx.tasks.update) throw new HttpError(400, `Cannot update task "${name}": this task engine only enables and disables tasks`);
  if (patch.name !== undefined && patch.name !== name) {
    throw new HttpError(400, `Cannot update task "${name}": a task cannot be renamed (the body names "${String(patch.name)}")`);
  }
  const merged = mergeTaskFields(tools.represent(state.config), patch);
  const { task } = tools.validateCreate({ task: merged });
  let config: TaskConfig;
  try {
    const normalized = ctx.normalizeTask(task, ctx.blocks());
    // Fields the API does not show stay as the task has them (a config file's working_dir).
    config = { ...normalized, working_dir: state.config.working_dir, variable_files: state.config.variable_files };
    if (Object.keys(patch).every((field) => SCHEDULING_FIELDS.includes(field))) config = withScheduling(state.config, normalized);
  } catch (error) {
    // The create's checks word their errors for a create; this request updates.
    throw new HttpError(400, errorMessage(error).replace(/^Cannot create task\b/, `Cannot update task "${name}"`));
  }
  if (state.running) throw new HttpError(500, `task '${name}' is active and cannot be updated now, try again later`);
  const requestId = requestIdOf(c);
  ctx.logger.info("updating task", { task_name: name, fields: Object.keys(patch).sort().join(","), run: run ?? "", request_id: requestId });
  let result;
  try {
    result = await ctx.tasks.update(name, config, run);
  } catch (error) {
    ctx.logger.error("error updating task", { task_name: name, request_id: requestId, error: errorMessage(error) });
    const status = isCtsError(error) && error.code === "CTS_ERR_CONFLICT" ? 500 : statusOfEngineError(error, run === "inspect" ? 400 : 500);
    return apiError(c, status, errorMessage(error));
  }
  const body: TaskUpdateResponse = {
    request_id: requestId,
    task: tools.represent(config),
    ...(run === "inspect" ? { inspect: inspectPlanBody(result.plan) } : {}),
  };
  return c.json(body);
}
