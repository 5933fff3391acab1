/**
 * @module `DELETE /v1/tasks/{name}?destroy=true` (beyond CTS, whose delete leaves the task's
 * resources behind): the task's resources are destroyed, then the task is deleted; the answer
 * waits for the destroy (202 as CTS's delete, or 500 with the error when the destroy failed and
 * the task was kept). `&run=inspect` answers the destroy's plan and changes nothing.
 */
import type { Context } from "hono";
import { errorMessage } from "../../../../core/plugin-api/mod.ts";
import { apiError, HttpError, requestIdOf, statusOfEngineError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import { parseQuery, type QueryRule } from "../query-rules.ts";
import type { DeleteResponse } from "../schemas/responses.schema.ts";
import type { DestroyPlanResponse } from "../schemas/task-changes.schema.ts";
import { inspectPlanBody } from "../plan-bodies.ts";

const destroyRule: QueryRule = { values: ["true", "false"] };
const inspectRule: QueryRule = { values: ["inspect"] };

/** The DELETE query: `destroy` (true/false) and, with it, `run=inspect`. */
export function deleteQuery(url: string): { destroy: boolean; inspect: boolean } {
  const query = parseQuery(url, { destroy: destroyRule, run: inspectRule });
  const destroy = query.destroy === "true";
  if (query.run !== undefined && !destroy) {
    throw new HttpError(400, "query parameter 'run=inspect' needs 'destroy=true': it shows the plan of the destroy");
  }
  return { destroy, inspect: query.run === "inspect" };
}

export async function handleDestroy(c: Context, ctx: RouteContext, name: string, inspect: boolean): Promise<Response> {
  const requestId = requestIdOf(c);
  if (inspect) {
    if (!ctx.tasks.planDestroy) throw new HttpError(400, `Cannot plan the destroy of task "${name}": this task engine cannot destroy`);
    try {
      const plan = await ctx.tasks.planDestroy(name);
      return c.json({ request_id: requestId, inspect: inspectPlanBody(plan) } satisfies DestroyPlanResponse, 200);
    } catch (error) {
      ctx.logger.error("error planning the destroy of task", { task_name: name, request_id: requestId, error: errorMessage(error) });
      return apiError(c, statusOfEngineError(error, 400), errorMessage(error));
    }
  }
  ctx.logger.info("destroying and deleting task", { task_name: name, request_id: requestId });
  try {
    await ctx.tasks.delete(name, { destroy: true });
  } catch (error) {
    ctx.logger.error("error destroying task", { task_name: name, request_id: requestId, error: errorMessage(error) });
    return apiError(c, statusOfEngineError(error), errorMessage(error));
  }
  return c.json({ request_id: requestId } satisfies DeleteResponse, 202);
}
