/** @module What every route group gets: the state, the run engine, the faults, and lookups that answer 404. */
import type { Context } from "hono";
import type { RunEngine } from "../runs/run-engine.ts";
import type { OrganizationRecord, RunRecord, WorkspaceRecord } from "../state/records.ts";
import type { TfcState } from "../state/tfc-state.ts";
import type { ViewContext } from "../views/view-context.ts";
import { notFound } from "./api-error.ts";
import type { FaultInjector } from "./faults.ts";
import type { RateLimiter } from "./rate-limiter.ts";

export interface ServerContext {
  readonly state: TfcState;
  readonly engine: RunEngine;
  readonly faults: FaultInjector;
  readonly rateLimiter: RateLimiter;
  readonly token: string;
  /** terraform-version of new workspaces: the version runs really execute with. */
  readonly defaultTerraformVersion: string;
}

export function viewContext(server: ServerContext, c: Context): ViewContext {
  return {
    state: server.state,
    origin: new URL(c.req.url).origin,
    positionInQueue: (runId) => server.engine.positionInQueue(runId),
  };
}

export function findOrganization(server: ServerContext, name: string): OrganizationRecord {
  const org = server.state.organizationByName(name);
  if (!org) throw notFound();
  return org;
}

export function findWorkspace(server: ServerContext, id: string): WorkspaceRecord {
  const ws = server.state.workspaces.get(id);
  if (!ws) throw notFound();
  return ws;
}

export function findWorkspaceByName(server: ServerContext, orgName: string, name: string): WorkspaceRecord {
  const ws = server.state.workspaceByName(findOrganization(server, orgName).id, name);
  if (!ws) throw notFound();
  return ws;
}

export function findRun(server: ServerContext, id: string): RunRecord {
  const run = server.state.runs.get(id);
  if (!run) throw notFound();
  return run;
}

/** `<id>` of a route parameter (hono's parameters are already URL-decoded). */
export function param(c: Context, name: string): string {
  return c.req.param(name) ?? "";
}
