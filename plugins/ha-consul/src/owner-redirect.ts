/**
 * @module Shared cluster mode: a change to a task (PATCH: enable/disable, `?run=now`; DELETE) made on
 * an instance that does not own it is redirected to its owner with 307 (method and body kept, as
 * HTTP clients and the CTS CLI follow it), so the change and the run happen where the task runs.
 * Reads are answered on every instance (the task store is shared). Creating a task through the API
 * is refused in this mode: every instance loads its tasks from the config files and the store.
 */
import type { RequestInterceptor, TaskOwnership } from "../../../core/plugin-api/mod.ts";

const TASK_PATH = /^\/v1\/tasks\/([^/]+)\/?$/;
const TASKS_PATH = /^\/v1\/tasks\/?$/;

export function createOwnerRedirect(ownership: TaskOwnership, scheme: "http" | "https"): RequestInterceptor {
  return (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && TASKS_PATH.test(url.pathname)) {
      const message = "Cannot create a task through the API in the shared cluster mode: every instance must know every task, so add it to the config files";
      return Response.json({ error: { message } }, { status: 400 });
    }
    const match = TASK_PATH.exec(url.pathname);
    if (!match || (request.method !== "PATCH" && request.method !== "DELETE")) return undefined;
    const task = decodeURIComponent(match[1]!);
    if (ownership.owns(task)) return undefined;
    const owner = ownership.ownerOf(task);
    // No known owner (moving between instances, or no such task): answered here.
    if (!owner) return undefined;
    if (!owner.address) {
      const message = `Cannot change task "${task}" here: instance '${owner.id}' runs it and advertises no address`;
      return Response.json({ error: { message } }, { status: 400 });
    }
    const location = `${scheme}://${owner.address}${url.pathname}${url.search}`;
    return new Response(null, { status: 307, headers: { location } });
  };
}
