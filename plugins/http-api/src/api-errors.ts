/**
 * @module The two error shapes CTS's API answers with, and the request id that marks the newer one.
 *
 * Legacy handlers (status, PATCH) answer `{"error":{"message"}}`; the OpenAPI-described handlers
 * (tasks lifecycle, health errors aside, cluster status) add `"request_id"`. Clients of CTS
 * parse both, so each route picks the shape CTS used for it.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { cutText, isCtsError } from "../../../core/plugin-api/mod.ts";
import type { ErrorBody } from "./schemas/responses.schema.ts";

/** The request's UUID, set by hono's requestId middleware (create-api-app.ts). */
export function requestIdOf(c: Context): string {
  return c.get("requestId");
}

// An answer never carries a huge value back (a message quoting a 2 MB field): messages are cut.
export function legacyError(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ error: { message: cutText(message) } } satisfies ErrorBody, status);
}

export function apiError(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ error: { message: cutText(message) }, request_id: requestIdOf(c) } satisfies ErrorBody, status);
}

/** An error thrown at the API boundary that already knows its HTTP status. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: ContentfulStatusCode;
  constructor(status: ContentfulStatusCode, message: string) {
    super(message);
    this.status = status;
  }
}

/** Maps an engine error to CTS's status: bad input 400, unknown task 404, everything else 500. */
export function statusOfEngineError(error: unknown, fallback: ContentfulStatusCode = 500): ContentfulStatusCode {
  if (error instanceof HttpError) return error.status;
  if (!isCtsError(error)) return fallback;
  switch (error.code) {
    case "CTS_ERR_NOT_FOUND":
      return 404;
    case "CTS_ERR_BAD_REQUEST":
    case "CTS_ERR_CONFIG_INVALID":
    case "CTS_ERR_CONFLICT":
      return 400;
    default:
      return fallback;
  }
}
