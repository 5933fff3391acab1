/**
 * @module The hono app: the rate limit, injected faults and the bearer token in front of `/api/v2`
 * (ping and the archivist URLs need no token), every route group, the read-only pages at the URLs
 * clients print, and JSON:API error answers.
 */
import { Hono } from "hono";
import { agentPoolRoutes } from "../routes/agent-pool-routes.ts";
import { configurationRoutes } from "../routes/configuration-routes.ts";
import { discoveryRoutes } from "../routes/discovery-routes.ts";
import { organizationRoutes } from "../routes/organization-routes.ts";
import { pageRoutes } from "../routes/page-routes.ts";
import { phaseRoutes } from "../routes/phase-routes.ts";
import { runRoutes } from "../routes/run-routes.ts";
import { stateRoutes } from "../routes/state-routes.ts";
import { tagRoutes } from "../routes/tag-routes.ts";
import { variableRoutes } from "../routes/variable-routes.ts";
import { workspaceRoutes } from "../routes/workspace-routes.ts";
import { ApiError, notFound, unauthorized } from "./api-error.ts";
import { errorResponse } from "./json-api.ts";
import type { ServerContext } from "./server-context.ts";

export function createTfcApp(server: ServerContext): Hono {
  const app = new Hono();
  app.use("/api/v2/*", async (c, next) => {
    if (c.req.path === "/api/v2/ping") return next();
    const header = c.req.header("Authorization") ?? "";
    const { headers, refusal } = server.rateLimiter.admit(header);
    if (refusal) return refusal;
    const fault = server.faults.intercept();
    if (fault) return fault;
    if (header !== `Bearer ${server.token}`) return errorResponse(unauthorized(), headers);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
  discoveryRoutes(app, server);
  organizationRoutes(app, server);
  agentPoolRoutes(app, server);
  workspaceRoutes(app, server);
  tagRoutes(app, server);
  variableRoutes(app, server);
  configurationRoutes(app, server);
  runRoutes(app, server);
  phaseRoutes(app, server);
  stateRoutes(app, server);
  pageRoutes(app, server);
  app.notFound(() => errorResponse(notFound()));
  app.onError((error) => {
    if (error instanceof ApiError) return errorResponse(error);
    return errorResponse(new ApiError(500, "internal server error", error instanceof Error ? error.message : String(error)));
  });
  return app;
}
