/**
 * @module Beyond CTS: a task's run history, `GET /v1/tasks/{name}/runs` (newest first, paged with
 * `?limit=` and the `?before=` cursor the previous page returned as `next`) and
 * `GET /v1/tasks/{name}/runs/{id}`. Errors take the shape of CTS's newer task endpoints (with a
 * request id); on a follower HA's redirect answers first, as for every `/v1/tasks` path.
 */
import type { Context, Hono } from "hono";
import { HttpError, requestIdOf, statusOfEngineError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import { errorMessage, type RunQuery } from "../../../../core/plugin-api/mod.ts";
import type { RunResponse, RunsResponse } from "../schemas/run-history.schema.ts";
import { taskNotFound } from "./cts-task-errors.ts";

export const DEFAULT_RUNS_LIMIT = 20;
export const MAX_RUNS_LIMIT = 100;

const RUN_ID = /^\d{13}-[0-9a-z]{1,32}$/;
const RUNS_PATH = "/v1/tasks/:name/runs";
const RUN_PATH = "/v1/tasks/:name/runs/:id";

/** The page a request asks for; anything else in the query is a 400 naming the parameter. */
export function runQueryOf(url: string): RunQuery {
  const params = new URL(url).searchParams;
  for (const name of new Set(params.keys())) {
    if (name !== "limit" && name !== "before") {
      throw new HttpError(400, `unsupported query parameter '${name}': allowed parameters are 'limit', 'before'`);
    }
    if (params.getAll(name).length > 1) throw new HttpError(400, `query parameter '${name}' may be given only once`);
  }
  const limitText = params.get("limit");
  let limit = DEFAULT_RUNS_LIMIT;
  if (limitText !== null) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_RUNS_LIMIT) {
      throw new HttpError(400, `unsupported value '${limitText}' for query parameter 'limit': use a whole number from 1 to ${MAX_RUNS_LIMIT}`);
    }
  }
  const before = params.get("before");
  if (before !== null && !RUN_ID.test(before)) {
    throw new HttpError(400, `unsupported value '${before}' for query parameter 'before': use the 'next' of the previous page (a run id)`);
  }
  return before === null ? { limit } : { limit, before };
}

function unknownTask(name: string): HttpError {
  return taskNotFound(name);
}

/** The engine's answer, with its errors mapped to CTS's statuses. */
async function ask<T>(ctx: RouteContext, name: string, work: () => Promise<T> | undefined): Promise<T> {
  if (!ctx.tasks.get(name)) throw unknownTask(name);
  try {
    const answer = work();
    if (answer === undefined) throw new HttpError(404, "this daemon's task manager keeps no run history");
    return await answer;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const status = statusOfEngineError(error);
    throw status === 404 ? unknownTask(name) : new HttpError(status, errorMessage(error));
  }
}

function notGet(c: Context): Response {
  throw new HttpError(405, `method ${c.req.method} is not allowed on ${c.req.path}: use GET`);
}

export function mountRunRoutes(app: Hono, ctx: RouteContext): void {
  app.get(RUNS_PATH, async (c) => {
    const name = c.req.param("name");
    const query = runQueryOf(c.req.url);
    const page = await ask(ctx, name, () => ctx.tasks.listRuns?.(name, query));
    return c.json({
      request_id: requestIdOf(c), runs: page.runs, ...(page.next ? { next: page.next } : {}), ...(page.total !== undefined ? { total: page.total } : {}),
    } satisfies RunsResponse);
  });
  app.get(RUN_PATH, async (c) => {
    const name = c.req.param("name");
    const id = c.req.param("id");
    if (new URL(c.req.url).search !== "") throw new HttpError(400, "this endpoint takes no query parameters");
    const run = await ask(ctx, name, () => ctx.tasks.getRun?.(name, id));
    if (!run) throw new HttpError(404, `run '${id}' of task '${name}' does not exist`);
    return c.json({ request_id: requestIdOf(c), run } satisfies RunResponse);
  });
  app.all(RUNS_PATH, notGet);
  app.all(RUN_PATH, notGet);
}
