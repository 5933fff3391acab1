/**
 * @module The hono app: `/v1/<path>` becomes one of Vault's operations (GET read, GET `?list=true`
 * or LIST list, POST/PUT write, DELETE delete), checked against the token (`X-Vault-Token` or a
 * bearer token) unless the path is open, then answered by `sys/`, `auth/token/` or the mount the
 * path falls in. Every valid token may use every path: there are no ACL policies here.
 */
import { Hono } from "hono";
import type { Operation } from "../engines/secret-engine.ts";
import { isUnauthenticatedSysPath, sysRoute } from "../routes/sys-routes.ts";
import { tokenRoute } from "../routes/token-routes.ts";
import type { VaultState } from "../state/vault-state.ts";
import { badRequest, errorResponse, noHandler, toResponse, unsupportedPath, VaultError, type VaultAnswer } from "./vault-answer.ts";

export function createVaultApp(state: VaultState): Hono {
  const app = new Hono();
  app.all("/v1/*", async (c) => {
    const url = new URL(c.req.url);
    const path = decodeURIComponent(url.pathname.slice("/v1/".length)).replace(/\/+$/, "");
    const operation = operationOf(c.req.method, url.searchParams);
    const namespace = (c.req.header("X-Vault-Namespace") ?? "").replace(/^\/+|\/+$/g, "");
    const body = operation === "write" || operation === "delete" ? await readBody(c.req.raw) : {};
    if (isUnauthenticatedSysPath(path)) return toResponse(sysRoute(state, namespace, operation, path, body));
    const caller = state.tokens.authenticate(tokenOf(c.req.header("X-Vault-Token"), c.req.header("Authorization")));
    return toResponse(route(state, namespace, caller, operation, path, body, url.searchParams));
  });
  app.notFound((c) => errorResponse(noHandler(new URL(c.req.url).pathname)));
  app.onError((error) => {
    if (error instanceof VaultError) return errorResponse(error);
    return errorResponse(new VaultError(500, [error instanceof Error ? error.message : String(error)]));
  });
  return app;
}

function route(state: VaultState, namespace: string, caller: ReturnType<VaultState["tokens"]["authenticate"]>, operation: Operation, path: string, body: Record<string, unknown>, query: URLSearchParams): VaultAnswer {
  if (path.startsWith("sys/")) return sysRoute(state, namespace, operation, path, body);
  if (path.startsWith("auth/token/")) return tokenRoute(state, caller, operation, path, body);
  const found = state.resolve(namespace, path);
  if (!found) throw noHandler(path);
  return found.mount.engine.handle({ operation, path: found.rest, body, query });
}

function operationOf(method: string, query: URLSearchParams): Operation {
  switch (method) {
    case "GET":
    case "HEAD":
      return query.get("list") === "true" ? "list" : "read";
    case "LIST":
      return "list";
    case "POST":
    case "PUT":
    case "PATCH":
      return "write";
    case "DELETE":
      return "delete";
    default:
      throw unsupportedPath();
  }
}

function tokenOf(header: string | undefined, authorization: string | undefined): string | undefined {
  if (header) return header;
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return bearer?.[1];
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest(`failed to parse JSON input: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw badRequest("failed to parse JSON input: expected an object");
  return parsed as Record<string, unknown>;
}
