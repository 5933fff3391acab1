/**
 * @module `GET /v1/events` (beyond CTS): the daemon's live events as Server-Sent Events, resumable
 * with the `Last-Event-ID` header or `?last_event_id=` (for clients that cannot set headers).
 * Every member of an HA cluster answers it with its own events (a follower's leadership and Consul
 * connection; task and run events come from the leader's stream).
 */
import type { Hono } from "hono";
import { HttpError } from "../api-errors.ts";
import type { EventStreamHub } from "../event-stream-hub.ts";
import type { ErrorBody } from "../schemas/responses.schema.ts";

export const EVENTS_PATH = "/v1/events";

/** What a refused stream client is told to wait (`Retry-After`), in seconds. */
const STREAMS_FULL_RETRY_SECONDS = 5;

/** The id to resume after, from the header or the query; undefined for a fresh stream. */
export function resumeId(url: string, header: string | undefined): number | undefined {
  const params = new URL(url).searchParams;
  for (const name of new Set(params.keys())) {
    if (name !== "last_event_id") {
      throw new HttpError(400, `unsupported query parameter '${name}': allowed parameters are 'last_event_id'`);
    }
  }
  const values = params.getAll("last_event_id");
  if (values.length > 1) throw new HttpError(400, `query parameter 'last_event_id' may be given only once, got ${values.length} values`);
  // The header wins: an EventSource opened with ?last_event_id= sends the newer id in it on reconnect.
  const raw = header?.trim() || values[0];
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new HttpError(400, `unsupported last event id '${raw}': expected the non-negative integer of an event's id: line`);
  }
  return Number(raw);
}

export function mountEventRoutes(app: Hono, hub: EventStreamHub): void {
  app.get(EVENTS_PATH, (c) => {
    const after = resumeId(c.req.url, c.req.header("last-event-id"));
    const headers = {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      // Asks reverse proxies (nginx) not to buffer the stream.
      "x-accel-buffering": "no",
    };
    // hono answers HEAD with this GET route and drops the body unread: open no stream for it.
    if (c.req.method === "HEAD") return new Response(null, { headers });
    if (hub.full) {
      const message = `Cannot open another event stream: ${hub.maxClients} are open, the most api.max_event_streams allows; retry later`;
      return c.json({ error: { message } } satisfies ErrorBody, 503, { "retry-after": String(STREAMS_FULL_RETRY_SECONDS) });
    }
    return new Response(hub.open(after).body, { headers });
  });
  app.all(EVENTS_PATH, (c) => {
    throw new HttpError(405, `method ${c.req.method} is not allowed on ${c.req.path}: use GET`);
  });
}
