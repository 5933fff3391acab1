/** @module The OpenAPI description of `GET /v1/events` (Server-Sent Events; beyond CTS). */

export const eventsPathItem: Record<string, unknown> = {
  get: {
    summary: "Live daemon events as Server-Sent Events (beyond CTS)",
    description:
      "A text/event-stream: `id:` is the event's number, `event:` its type (task.status, task.created, task.deleted, " +
      "run.started, run.output, run.ended, task.drift, leadership, consul.connection), `data:` the event as JSON; run.output " +
      "carries a running run's output (whole lines: task, run_id, phase, offset in bytes, text) and is never replayed (task.drift: " +
      "`{task, drift: DriftState}` when a drift check's finding differs from the one before). A stream starts with the " +
      "events after the Last-Event-ID header (or last_event_id query parameter), or with a `resync` event when they " +
      "are no longer retained (reload state from the API), then a `ready` event carrying the newest id. Comments are " +
      "sent every 15 s. A client that stops reading is disconnected once its queue passes 1000 events or 256 KiB; " +
      "it resumes with Last-Event-ID. Each HA member streams its own events.",
    parameters: [
      { name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^[0-9]+$" } },
      { name: "last_event_id", in: "query", required: false, schema: { type: "string", pattern: "^[0-9]+$" } },
    ],
    responses: {
      200: { description: "The event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
      400: {
        description: "Bad last event id or query parameter",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    },
  },
};
