/**
 * @module Test-only fault injection: a hook that may answer a request in place of the server, so
 * clients' handling of rate limits (429), restarts (5xx) and other answers can be tested over real
 * HTTP without a fake client (and which requests a client sent, with which token). Production
 * commands never set it.
 */
import { requestToken } from "../acl.ts";

/** What the hook sees of a request. */
export interface FaultRequest {
  readonly method: string;
  /** Path without the query string, e.g. `/v1/agent/service/register`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The request's ACL token (`?token=`, `X-Consul-Token` or a bearer token), "" when none. */
  readonly token: string;
}

/** An answer given instead of the server's; the body is plain text, as Consul's errors are. */
export interface FaultAnswer {
  readonly status: number;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Returns an answer to inject, or undefined to let the server answer. */
export type FaultHook = (request: FaultRequest) => FaultAnswer | undefined;

export function faultResponse(hook: FaultHook | undefined, request: Request): Response | undefined {
  if (!hook) return undefined;
  const url = new URL(request.url);
  const answer = hook({ method: request.method, path: url.pathname, query: url.searchParams, token: requestToken(request, url.searchParams) });
  if (!answer) return undefined;
  return new Response(answer.body ?? "", {
    status: answer.status,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...answer.headers },
  });
}
