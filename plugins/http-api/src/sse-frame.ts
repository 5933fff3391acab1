/**
 * @module Server-Sent Events framing (the WHATWG `text/event-stream` format): `id:` is the bus
 * number (what an EventSource sends back as Last-Event-ID), `event:` the type, `data:` one line
 * of JSON (JSON.stringify escapes newlines, so a frame never needs several `data:` lines).
 */
import type { NumberedEvent } from "../../../core/plugin-api/mod.ts";

/** How long an EventSource waits before reconnecting, sent once at the start of every stream. */
export const SSE_RETRY_MS = 2000;

export function eventFrame(event: NumberedEvent): string {
  return frame(event.id, event.type, event);
}

export function frame(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, it keeps proxies and load balancers from timing out. */
export const HEARTBEAT_FRAME = ": heartbeat\n\n";

export function retryFrame(ms = SSE_RETRY_MS): string {
  return `retry: ${ms}\n\n`;
}
