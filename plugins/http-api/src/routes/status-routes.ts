/**
 * @module `/v1/status` and `/v1/status/tasks[/{name}]`: CTS's legacy status handlers (GET only,
 * `{"error":{"message"}}` errors, no request id).
 */
import type { Context, Hono } from "hono";
import type { ConsulConnectionState, TaskState, TaskStatus } from "../../../../core/plugin-api/mod.ts";
import { HttpError, legacyError } from "../api-errors.ts";
import type { RouteContext } from "../api-context.ts";
import { includeRule, parseQuery, statusRule } from "../query-rules.ts";
import { taskNameFromPath } from "../task-path.ts";
import type { DamagedRecordsBody, OverallStatusResponse } from "../schemas/responses.schema.ts";
import type { TaskStatusEntryBody } from "../schemas/task-changes.schema.ts";

/** One entry of `/v1/status/tasks`, typed by its schema. */
type TaskStatusEntry = TaskStatusEntryBody;

const STATUSES: readonly TaskStatus[] = ["successful", "errored", "critical", "unknown"];

function methodNotAllowed(c: Context): Response {
  return legacyError(c, 405, `method ${c.req.method} is not allowed on ${c.req.path}: use GET`);
}

function overallStatus(states: readonly TaskState[], consul?: ConsulConnectionState, damaged: DamagedRecordsBody = []): OverallStatusResponse {
  const status: Record<TaskStatus, number> = { successful: 0, errored: 0, critical: 0, unknown: 0 };
  const enabled = { true: 0, false: 0 };
  for (const state of states) {
    status[STATUSES.includes(state.status) ? state.status : "unknown"]++;
    enabled[state.config.enabled ? "true" : "false"]++;
  }
  return {
    task_summary: { status, enabled },
    ...(consul ? { consul: consulStatus(consul) } : {}),
    // Beyond CTS (an added key, only when there are some): stored records that cannot be decoded.
    ...(damaged.length > 0 ? { damaged_records: damaged } : {}),
  };
}

/** Beyond CTS (an added key; CTS's `task_summary` is unchanged): is Consul reachable, since when. */
function consulStatus(state: ConsulConnectionState): NonNullable<OverallStatusResponse["consul"]> {
  return {
    healthy: state.healthy,
    since: new Date(state.since).toISOString(),
    failures: state.failures,
    ...(state.healthy || state.lastError === undefined ? {} : { last_error: state.lastError }),
  };
}

function union(lists: Iterable<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const item of list) seen.add(item);
  return [...seen];
}

/** One entry of `/v1/status/tasks`. */
export function taskStatusEntry(state: TaskState, withEvents: boolean): TaskStatusEntry {
  const name = state.config.name;
  const hasEvents = state.events.length > 0;
  const drift = state.drift;
  return {
    task_name: name,
    status: state.status,
    enabled: state.config.enabled,
    events_url: hasEvents ? `/v1/status/tasks/${encodeURIComponent(name)}?include=events` : "",
    // Deprecated in CTS but still emitted: what the stored runs used, else what is configured.
    providers: hasEvents ? union(state.events.map((e) => e.config.providers)) : [...state.config.providers],
    services: hasEvents ? union(state.events.map((e) => e.config.services)) : [...(state.config.services ?? [])],
    // Beyond CTS: drift detection's view, only for tasks it watches (CTS's shape is unchanged otherwise).
    ...(drift && (drift.next_check !== undefined || drift.status !== "unknown") ? { drift } : {}),
    // Beyond CTS (an added key, present only then): why the running run waits (a lock, an approval).
    ...(state.waiting !== undefined ? { waiting: state.waiting } : {}),
    // CTS's `events` is omitempty: a task that never ran has no key at all, not [].
    ...(withEvents && hasEvents ? { events: state.events } : {}),
  };
}

export function mountStatusRoutes(app: Hono, ctx: RouteContext): void {
  app.get("/v1/status", (c) => {
    parseQuery(c.req.url, {});
    return c.json(overallStatus(ctx.tasks.list(), ctx.consulState?.(), ctx.tasks.damagedRecords?.()));
  });
  app.all("/v1/status", methodNotAllowed);

  const tasksStatus = (c: Context): Response => {
    const name = c.req.path === "/v1/status/tasks" ? "" : taskNameFromPath(c.req.path, "/v1/status/tasks/");
    const query = parseQuery(c.req.url, { include: includeRule, status: statusRule });
    const withEvents = query.include === "events";
    // CTS filters the tasks that have events; a named task without any is answered as unknown whatever
    // the filter (its handler adds it after filtering).
    const keep = (state: TaskState): boolean =>
      query.status === undefined || state.status === query.status || (name !== "" && state.events.length === 0);
    let states: TaskState[];
    if (name === "") {
      // CTS answers a Go map, which encoding/json writes with its keys sorted: alphabetical, unlike /v1/tasks.
      states = ctx.tasks.list().sort((a, b) => (a.config.name < b.config.name ? -1 : 1));
    } else {
      const state = ctx.tasks.get(name);
      if (!state) {
        throw new HttpError(404, `task '${name}' does not exist or has not been initialized yet`);
      }
      states = [state];
    }
    const body: Record<string, TaskStatusEntry> = {};
    for (const state of states.filter(keep)) body[state.config.name] = taskStatusEntry(state, withEvents);
    return c.json(body);
  };
  app.get("/v1/status/tasks", tasksStatus);
  app.get("/v1/status/tasks/*", tasksStatus);
  app.all("/v1/status/tasks", methodNotAllowed);
  app.all("/v1/status/tasks/*", methodNotAllowed);
}
