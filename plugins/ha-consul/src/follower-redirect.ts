/**
 * @module Followers answer task and status requests with CTS's redirect errors (400), so clients
 * find the leader; `/v1/status/cluster` and `/v1/health` are answered locally on every member.
 */
import type { Leadership, RequestInterceptor } from "../../../core/plugin-api/mod.ts";

const LEADER_ONLY = /^\/v1\/(tasks(\/|$)|status(\/tasks)?(\/|$))/;
const LOCAL = /^\/v1\/status\/cluster\/?$/;

export function redirectMessage(leadership: Leadership): string {
  const leader = leadership.leader();
  if (!leader) return "redirect requests to leader";
  return leader.address
    ? `redirect requests to leader '${leader.id}' at ${leader.address}`
    : `redirect requests to leader '${leader.id}'`;
}

export function createFollowerRedirect(leadership: Leadership): RequestInterceptor {
  return (request) => {
    if (leadership.isLeader()) return undefined;
    const path = new URL(request.url).pathname;
    if (LOCAL.test(path) || !LEADER_ONLY.test(path)) return undefined;
    return Response.json({ error: { message: redirectMessage(leadership) } }, { status: 400 });
  };
}
