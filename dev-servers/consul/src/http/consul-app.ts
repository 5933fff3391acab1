/** @module The hono app: every /v1 endpoint group over one ServerContext. */
import { Hono } from "hono";
import { agentRoutes } from "../routes/agent-routes.ts";
import { catalogRoutes } from "../routes/catalog-routes.ts";
import { healthRoutes } from "../routes/health-routes.ts";
import { kvRoutes } from "../routes/kv-routes.ts";
import { maintenanceRoutes } from "../routes/maintenance-routes.ts";
import { sessionRoutes } from "../routes/session-routes.ts";
import { statusRoutes } from "../routes/status-routes.ts";
import { txnRoutes } from "../routes/txn-routes.ts";
import { faultResponse } from "./fault-hook.ts";
import { errorResponse, text } from "./respond.ts";
import type { ServerContext } from "./route-context.ts";

export function createConsulApp(server: ServerContext): Hono {
  const app = new Hono();
  if (server.faults) {
    const hook = server.faults;
    app.use("*", async (c, next) => {
      const injected = faultResponse(hook, c.req.raw);
      if (injected) return injected;
      await next();
    });
  }
  statusRoutes(app, server);
  // Before agentRoutes: its /v1/agent/service/ prefix would take the maintenance path.
  maintenanceRoutes(app, server);
  agentRoutes(app, server);
  catalogRoutes(app, server);
  healthRoutes(app, server);
  kvRoutes(app, server);
  sessionRoutes(app, server);
  txnRoutes(app, server);
  app.notFound(() => text(404, "404 page not found\n"));
  app.onError((error) => errorResponse(error));
  return app;
}
