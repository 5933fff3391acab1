/**
 * @module The hono app behind `/v1`: a request id, a body size limit, DEBUG request logs (health
 * excluded) and CTS's error shape per route. CORS, preflights and the API token are the kernel
 * router's (they apply to every mount), so this app never sees an OPTIONS request from the daemon.
 */
import { Hono, type Context } from "hono";
import stripAnsi from "strip-ansi";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import type { ApiDeps, RouteContext } from "./api-context.ts";
import { apiError, HttpError, legacyError } from "./api-errors.ts";
import { createAjv, IncompleteBodyError } from "./body-validator.ts";
import { ApiBlocks } from "./api-blocks.ts";
import { mountEventRoutes } from "./routes/event-routes.ts";
import { mountMetaRoutes } from "./routes/meta-routes.ts";
import { mountStatusRoutes } from "./routes/status-routes.ts";
import { mountRunRoutes } from "./routes/run-routes.ts";
import { mountTaskRoutes } from "./routes/task-routes.ts";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * CTS's legacy handlers (status, PATCH except its 404/500) answer without a request id; the
 * OpenAPI-described ones (tasks lifecycle, cluster status) with one.
 */
function isLegacyShape(c: Context, status: number): boolean {
  const path = c.req.path;
  if (path === "/v1/status/cluster") return false;
  if (path === "/v1/status" || path.startsWith("/v1/status/")) return true;
  if (c.req.method === "PATCH" && path.startsWith("/v1/tasks/")) return status !== 404 && status !== 500;
  return !(path === "/v1/tasks" || path.startsWith("/v1/tasks/"));
}

function errorResponse(c: Context, error: unknown): Response {
  const status = error instanceof HttpError ? error.status : 500;
  const message = stripAnsi(errorMessage(error));
  return isLegacyShape(c, status) ? legacyError(c, status, message) : apiError(c, status, message);
}

export function createApiApp(deps: ApiDeps): Hono {
  let blocks: ApiBlocks | undefined;
  const registered = deps.registeredBlocks;
  const readBlocks = () => blocks ??= registered ? new ApiBlocks(registered()) : ApiBlocks.none;
  const ctx: RouteContext = { ...deps, ajv: createAjv(), blocks: readBlocks };
  const app = new Hono();
  const log = deps.logger;

  // A UUID per request, as CTS makes one: no header read or written, only `request_id` in the
  // bodies of the OpenAPI-described routes and in the request logs.
  app.use("*", requestId({ headerName: "" }));
  app.use("*", async (c, next) => {
    const quiet = c.req.path === "/v1/health";
    const started = performance.now();
    if (!quiet) log.debug("received request", { method: c.req.method, uri: c.req.url, host: c.req.header("host") ?? "" });
    await next();
    if (!quiet) {
      log.debug("request complete", {
        method: c.req.method,
        uri: c.req.url,
        status_code: c.res.status,
        duration_us: Math.round((performance.now() - started) * 1000),
        request_id: c.get("requestId"),
      });
    }
  });

  const limit = bodyLimit({
    maxSize: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    onError: (c) =>
      errorResponse(c, new HttpError(413, `request body is larger than ${deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES} bytes`)),
  });
  app.use("/v1/tasks", limit);
  app.use("/v1/tasks/*", limit);

  mountStatusRoutes(app, ctx);
  // Before the task routes, whose `/v1/tasks/*` would take `{name}/runs` for a name with a slash.
  mountRunRoutes(app, ctx);
  mountTaskRoutes(app, ctx);
  mountMetaRoutes(app, ctx);
  if (deps.eventStream) mountEventRoutes(app, deps.eventStream);

  app.all("/v1/tasks", (c) => apiError(c, 405, `method ${c.req.method} is not allowed on /v1/tasks: use GET or POST`));
  app.all(
    "/v1/tasks/*",
    (c) => errorResponse(c, new HttpError(405, `method ${c.req.method} is not allowed on ${c.req.path}: use GET, PATCH or DELETE`)),
  );
  app.notFound((c) => legacyError(c, 404, `no endpoint at ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof IncompleteBodyError) log.debug("the client went away before its request arrived", { uri: c.req.url, error: errorMessage(error) });
    else if (!(error instanceof HttpError)) log.error("unexpected error handling request", { uri: c.req.url, error: errorMessage(error) });
    return errorResponse(c, error);
  });
  return app;
}
