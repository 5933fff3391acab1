/**
 * @module `/v1/tasks` and `/v1/tasks/{name}`: list, create (run=now|inspect), read, enable or
 * disable (PATCH), delete. A failed request changes nothing: every check runs before the engine
 * is asked to act, and the engine keeps a task only when its create/run succeeded.
 */
import type { Context, Hono } from "hono";
import type { RunRequest, TaskConfig } from "../../../../core/plugin-api/mod.ts";
import { errorMessage, isCtsError } from "../../../../core/plugin-api/mod.ts";
import { type TaskCreateRequest, type TaskUpdateRequest, taskUpdateRequestSchema } from "../schemas/requests.schema.ts";
import type { DeleteResponse, TaskResponse, TasksResponse } from "../schemas/responses.schema.ts";
import type { TaskUpdateResponse } from "../schemas/task-changes.schema.ts";
import { createRunBody, inspectPlanBody } from "../plan-bodies.ts";
import { apiError, HttpError, legacyError, requestIdOf, statusOfEngineError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import { bodyValidator, readJson, type BodyValidator } from "../body-validator.ts";
import { compilingDriverFields, compilingRequestSchemas, taskCreateSchemaFor } from "../schemas/registered-task-schema.ts";
import { parseQuery, runRule } from "../query-rules.ts";
import { taskNameFromPath } from "../task-path.ts";
import { toApiTask } from "../task-representation.ts";
import { taskAlreadyExists, taskNotFound } from "./cts-task-errors.ts";
import { deleteQuery, handleDestroy } from "./task-destroy.ts";
import { handleTaskUpdate, isTaskUpdateBody, unsupportedKeys } from "./task-update.ts";
import { weakEnabled } from "./weak-enabled.ts";

function runOf(c: Context): RunRequest {
  return parseQuery(c.req.url, { run: runRule }).run as RunRequest;
}

/**
 * Beyond CTS: the outputs of the task's last successful apply, beside CTS's `task`. Reading them
 * never fails the read of the task: a store that cannot answer leaves them out.
 */
async function lastOutputs(ctx: RouteContext, name: string): Promise<Pick<TaskResponse, "outputs" | "outputs_run_id">> {
  try {
    const found = await ctx.tasks.outputs?.(name);
    return found ? { outputs: found.outputs, outputs_run_id: found.run_id } : {};
  } catch (error) {
    ctx.logger.warn("cannot read the task's last outputs", { task_name: name, error: errorMessage(error) });
    return {};
  }
}

function nameOf(c: Context): string {
  const name = taskNameFromPath(c.req.path, "/v1/tasks/");
  if (name === "") throw new HttpError(404, "a task name is required in the path /v1/tasks/{name}");
  return name;
}

function requireTask(ctx: RouteContext, name: string): void {
  if (!ctx.tasks.get(name)) throw taskNotFound(name);
}

export function mountTaskRoutes(app: Hono, ctx: RouteContext): void {
  // Built at the first create: plugins register their conditions and module inputs until start.
  let validateCreate: BodyValidator<TaskCreateRequest> | undefined;
  const createValidator = () => validateCreate ??= bodyValidator<TaskCreateRequest>(
    ctx.ajv, taskCreateSchemaFor(ctx.blocks(), compilingRequestSchemas(ctx.logger), compilingDriverFields(ctx.logger)),
    "#/components/schemas/TaskRequest",
  );
  const represent = (task: TaskConfig) => toApiTask(task, ctx.blocks());
  const validateUpdate = bodyValidator<TaskUpdateRequest>(ctx.ajv, taskUpdateRequestSchema);
  const log = ctx.logger;

  app.get("/v1/tasks", (c) => {
    parseQuery(c.req.url, {});
    // CTS lists its stored task configs as kept: configuration order, then creation order.
    const tasks = ctx.tasks.list().map((state) => represent(state.config));
    return c.json({ request_id: requestIdOf(c), tasks } satisfies TasksResponse);
  });

  app.post("/v1/tasks", async (c) => {
    const run = runOf(c);
    const body = createValidator()(await readJson(c.req.raw));
    const name = body.task.name;
    try {
      ctx.validateTaskName(name);
    } catch (error) {
      throw new HttpError(400, errorMessage(error));
    }
    if (ctx.tasks.get(name)) throw taskAlreadyExists(name);
    let config;
    try {
      config = ctx.normalizeTask(body.task, ctx.blocks());
    } catch (error) {
      throw new HttpError(400, errorMessage(error));
    }
    const requestId = requestIdOf(c);
    log.info("creating task", { task_name: name, run: run ?? "", request_id: requestId });
    let result;
    try {
      result = await ctx.tasks.create(config, run);
    } catch (error) {
      // CTS reports a failed inspection as the caller's problem (400), a failed create/run as 500.
      const status = statusOfEngineError(error, run === "inspect" ? 400 : 500);
      log.error("error creating task", { task_name: name, request_id: requestId, error: errorMessage(error) });
      return apiError(c, status, errorMessage(error));
    }
    const task = represent(result.task);
    if (run === "inspect") {
      return c.json({ request_id: requestId, task, run: createRunBody(result.plan) } satisfies TaskResponse, 200);
    }
    return c.json({ request_id: requestId, task } satisfies TaskResponse, 201);
  });

  app.get("/v1/tasks/*", async (c) => {
    const name = nameOf(c);
    parseQuery(c.req.url, {});
    const state = ctx.tasks.get(name);
    if (!state) throw taskNotFound(name);
    const outputs = await lastOutputs(ctx, name);
    return c.json({ request_id: requestIdOf(c), task: represent(state.config), ...outputs } satisfies TaskResponse);
  });

  // CTS's legacy PATCH handler answers a request without a task name 400, in its own words.
  const noName = (c: Context) =>
    legacyError(c, 400, "no task name was included in the api request. Updating a task requires the task name: '/v1/tasks/:task_name'");
  app.patch("/v1/tasks", noName);
  app.patch("/v1/tasks/*", async (c) => {
    if (taskNameFromPath(c.req.path, "/v1/tasks/") === "") return noName(c);
    const name = nameOf(c);
    const run = runOf(c);
    const raw = await readJson(c.req.raw);
    const unsupported = unsupportedKeys(raw, ctx.blocks().driverTaskFields().keys());
    if (unsupported) throw unsupported;
    if (isTaskUpdateBody(raw)) {
      const tools = { validateCreate: (body: unknown) => createValidator()(body), represent };
      return handleTaskUpdate(c, ctx, tools, name, run, raw);
    }
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && !("enabled" in raw)) {
      // CTS's sentence (api/task.go updateTask).
      throw new HttpError(400, "/v1/tasks/:task_name currently only supports the 'enabled' field. Missing 'enabled' from the request body");
    }
    const body = validateUpdate(weakEnabled(raw));
    requireTask(ctx, name);
    if (ctx.tasks.get(name)?.running) {
      throw new HttpError(500, `task '${name}' is active and cannot be updated now, try again later`);
    }
    const requestId = requestIdOf(c);
    log.info("updating task", { task_name: name, enabled: body.enabled, run: run ?? "", request_id: requestId });
    let result;
    try {
      result = await ctx.tasks.setEnabled(name, body.enabled, run);
    } catch (error) {
      log.error("error updating task", { task_name: name, request_id: requestId, error: errorMessage(error) });
      // A task that became active meanwhile is CTS's 500 ("active and cannot be updated"), not a 400.
      const status = isCtsError(error) && error.code === "CTS_ERR_CONFLICT" ? 500 : statusOfEngineError(error);
      return apiError(c, status, errorMessage(error));
    }
    if (run === "inspect") {
      // CTS's body; beyond CTS, where the inspection's run record can be read.
      const headers = result.runId ? { "content-location": `/v1/tasks/${encodeURIComponent(name)}/runs/${result.runId}` } : undefined;
      return c.json({ inspect: inspectPlanBody(result.plan) } satisfies TaskUpdateResponse, 200, headers);
    }
    return c.json({} satisfies TaskUpdateResponse);
  });

  app.delete("/v1/tasks/*", async (c) => {
    const name = nameOf(c);
    const query = deleteQuery(c.req.url);
    const state = ctx.tasks.get(name);
    if (!state) throw taskNotFound(name);
    if (query.destroy) return handleDestroy(c, ctx, name, query.inspect);
    const requestId = requestIdOf(c);
    log.info("deleting task", { task_name: name, request_id: requestId });
    const deleting = ctx.tasks.delete(name);
    if (state.running) {
      // CTS answers at once and deletes once the current run ends.
      deleting.catch((error: unknown) =>
        log.error("error deleting task", { task_name: name, request_id: requestId, error: errorMessage(error) })
      );
    } else {
      try {
        await deleting;
      } catch (error) {
        return apiError(c, statusOfEngineError(error), errorMessage(error));
      }
    }
    return c.json({ request_id: requestId } satisfies DeleteResponse, 202);
  });
}
