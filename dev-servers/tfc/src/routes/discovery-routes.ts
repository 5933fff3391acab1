/**
 * @module Service discovery (`/.well-known/terraform.json`, which the Terraform CLI only accepts
 * as `application/json`), `ping` with the API version header clients check, and the account.
 */
import type { Hono } from "hono";
import { jsonApiResponse } from "../http/json-api.ts";
import type { ServerContext } from "../http/server-context.ts";

/** The Terraform CLI's `cloud` block needs at least 2.5; 2.6 also allows `import` blocks. */
export const API_VERSION = "2.6";

export function discoveryRoutes(app: Hono, server: ServerContext): void {
  app.get("/.well-known/terraform.json", () =>
    new Response(JSON.stringify({ "tfe.v2": "/api/v2/", "tfe.v2.1": "/api/v2/", "tfe.v2.2": "/api/v2/", "state.v2": "/api/v2/" }), {
      headers: { "Content-Type": "application/json" },
    }));

  app.get("/api/v2/ping", () =>
    new Response(null, { status: 204, headers: { "TFP-API-Version": API_VERSION, ...server.rateLimiter.announce() } }));

  app.get("/api/v2/account/details", () =>
    jsonApiResponse({
      data: {
        id: "user-tfc-dev",
        type: "users",
        attributes: { "username": "tfc-dev", "email": "tfc-dev@localhost", "is-service-account": false, "two-factor": { enabled: false } },
      },
    }));
}
