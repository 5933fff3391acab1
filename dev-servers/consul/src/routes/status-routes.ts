/** @module /v1/status/leader and /peers (CTS refuses to start until the leader is non-empty), plus trivial extras. */
import type { Hono } from "hono";
import { json, text } from "../http/respond.ts";
import { route, type ServerContext } from "../http/route-context.ts";

export function statusRoutes(app: Hono, server: ServerContext): void {
  const raft = `${server.state.address}:8300`;
  route(app, server, "/v1/status/leader", { GET: () => json(raft) });
  route(app, server, "/v1/status/peers", { GET: () => json([raft]) });
  // CTS OSS treats 404 as "not Enterprise".
  route(app, server, "/v1/operator/license", { GET: () => text(404, "Consul Enterprise feature") });
  route(app, server, "/v1/acl/", { GET: () => text(401, "ACL support disabled"), PUT: () => text(401, "ACL support disabled") });
}
