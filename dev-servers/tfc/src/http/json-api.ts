/** @module JSON:API documents as HCP Terraform writes them: resources, relationships, errors. */
import { ApiError } from "./api-error.ts";
import type { Page } from "./paging.ts";

export const JSON_API = "application/vnd.api+json";

export interface Resource {
  readonly id: string;
  readonly type: string;
  readonly attributes: Record<string, unknown>;
  readonly relationships?: Record<string, unknown>;
  readonly links?: Record<string, string | null>;
}

/** A to-one relationship: `{data: {id, type}}`, or `{data: null}`. */
export function toOne(type: string, id: string | null | undefined, related?: string): Record<string, unknown> {
  return { data: id ? { id, type } : null, ...(related ? { links: { related } } : {}) };
}

/** A to-many relationship. */
export function toMany(type: string, ids: readonly string[]): Record<string, unknown> {
  return { data: ids.map((id) => ({ id, type })) };
}

export function jsonApiResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": JSON_API, ...headers },
  });
}

export function single(resource: Resource, included: readonly Resource[] = [], status = 200): Response {
  return jsonApiResponse({ data: resource, ...(included.length > 0 ? { included: dedupe(included) } : {}) }, status);
}

export function many(page: Page<Resource>, included: readonly Resource[] = []): Response {
  return jsonApiResponse({
    data: page.items,
    ...(included.length > 0 ? { included: dedupe(included) } : {}),
    links: page.links,
    meta: { pagination: page.meta },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export function errorResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  return jsonApiResponse(error.toDocument(), error.status, headers);
}

function dedupe(resources: readonly Resource[]): Resource[] {
  const seen = new Set<string>();
  return resources.filter((resource) => {
    const key = `${resource.type}/${resource.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
