/** @module What every endpoint handler receives, and how handlers are registered on the hono app. */
import type { Hono } from "hono";
import { type AclTokens, authorize, type Authorizer, requestToken } from "../acl.ts";
import type { AgentChecks } from "../agent/agent-checks.ts";
import { badRequest } from "../api-error.ts";
import type { ConsulState } from "../state/consul-state.ts";
import type { FaultHook } from "./fault-hook.ts";
import { memoKey, type QueryMemo } from "./query-memo.ts";
import { errorResponse, text } from "./respond.ts";

export interface ServerContext {
  readonly state: ConsulState;
  readonly acl: AclTokens;
  readonly agentChecks: AgentChecks;
  /** Smallest session TTL accepted (Consul's session_ttl_min). @default 10s */
  readonly sessionTtlMinNs?: number;
  /** Shared results of identical blocking reads. */
  readonly memo: QueryMemo;
  /** Test-only: answers chosen requests instead of the server (see fault-hook.ts). */
  readonly faults?: FaultHook;
}

export interface RouteContext {
  readonly request: Request;
  readonly params: URLSearchParams;
  /** The path after the route prefix, percent-decoded (npm sends `a%2Fb` for key `a/b`). */
  readonly rest: string;
  readonly state: ConsulState;
  readonly server: ServerContext;
  readonly authz: Authorizer;
  readonly signal: AbortSignal;
  /** Identical blocking reads share results (see QueryMemo). */
  readonly memo: { readonly key: string; readonly cache: QueryMemo };
}

export type Handler = (ctx: RouteContext) => Response | Promise<Response>;
export type Methods = Partial<Record<"GET" | "PUT" | "POST" | "DELETE", Handler>>;

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Registers `path` (exact) or `path*` (prefix, when it ends with "/") for the given methods.
 * Other methods get 405 with `Allow`, OPTIONS gets 200 with `Allow` (Consul's http.go).
 */
export function route(app: Hono, server: ServerContext, path: string, methods: Methods): void {
  const allow = ["OPTIONS", ...Object.keys(methods)].join(",");
  const prefix = path.endsWith("/") ? path : undefined;
  const handler = async (request: Request): Promise<Response> => {
    const method = request.method === "POST" && !methods.POST && methods.PUT ? "PUT" : request.method;
    if (method === "OPTIONS") return new Response(null, { status: 200, headers: { Allow: allow } });
    const fn = methods[method as keyof Methods];
    if (!fn) return text(405, `method ${request.method} not allowed`, { Allow: allow });
    const url = new URL(request.url);
    try {
      const namespace = request.headers.get("X-Consul-Namespace");
      // Consul CE refuses the header whatever its value, `default` included (agent/http_ce.go).
      if (namespace) {
        throw badRequest(`Invalid header: "X-Consul-Namespace" - Namespaces are a Consul Enterprise feature`);
      }
      const token = requestToken(request, url.searchParams);
      let key: string | undefined;
      const ctx: RouteContext = {
        request,
        params: url.searchParams,
        rest: prefix ? decodePath(url.pathname.slice(prefix.length)) : "",
        state: server.state,
        server,
        authz: authorize(server.acl, token),
        signal: request.signal,
        memo: {
          cache: server.memo,
          // Only reads use it: computed on first use.
          get key() {
            return key ??= memoKey(request, url, token);
          },
        },
      };
      return await fn(ctx);
    } catch (error) {
      return errorResponse(error);
    }
  };
  if (prefix) {
    app.all(prefix.slice(0, -1), (c) => handler(c.req.raw));
    app.all(`${prefix}*`, (c) => handler(c.req.raw));
  } else {
    app.all(path, (c) => handler(c.req.raw));
  }
}
