/** @module `/v1/health`, `/v1/status/cluster` (405 without HA) and `/v1/openapi.json`. */
import type { Context, Hono } from "hono";
import { apiError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import { openApiDocument } from "../openapi-document.ts";
import { parseQuery } from "../query-rules.ts";
import type { HealthResponse } from "../schemas/responses.schema.ts";

/** CTS's exact text; scripts match on it. */
export const CLUSTER_WITHOUT_HA_MESSAGE = "this endpoint is only available with high availability configured";

export function mountMetaRoutes(app: Hono, ctx: RouteContext): void {
  const methodNotAllowed = (c: Context): Response =>
    apiError(c, 405, `method ${c.req.method} is not allowed on ${c.req.path}: use GET`);

  // The standalone checker is always healthy, as in CTS; a Consul outage is ridden out, not fatal.
  app.get("/v1/health", (c) => {
    parseQuery(c.req.url, {});
    return c.json({} satisfies HealthResponse);
  });
  app.all("/v1/health", methodNotAllowed);

  // With HA configured, plugins/ha-consul mounts this exact path, which the router prefers to `/v1`.
  app.get("/v1/status/cluster", (c) => {
    parseQuery(c.req.url, {});
    return apiError(c, 405, CLUSTER_WITHOUT_HA_MESSAGE);
  });
  app.all("/v1/status/cluster", methodNotAllowed);

  let document: unknown;
  app.get("/v1/openapi.json", (c) => c.json(document ??= openApiDocument(ctx.blocks())));
}
