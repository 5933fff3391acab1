/** @module Shared pieces of catalog/health reads: node-meta and tag matching, filters, ACL visibility. */
import type { Authorizer } from "../acl.ts";
import { compileFilter, type FilterSchema } from "../bexpr/filter.ts";
import type { CatalogNode, ServiceInstance } from "../state/types.ts";

/** `node-meta=k:v` (repeatable, all must match). */
export function nodeMetaMatcher(params: URLSearchParams): (node: CatalogNode | undefined) => boolean {
  const pairs = params.getAll("node-meta").map((item) => {
    const at = item.indexOf(":");
    return at < 0 ? [item, ""] as const : [item.slice(0, at), item.slice(at + 1)] as const;
  });
  return (node) => node !== undefined && pairs.every(([k, v]) => node.meta[k] === v);
}

/** `tag=` (repeatable, all required; compared case-insensitively like Consul's serviceTagFilter). */
export function tagMatcher(params: URLSearchParams): (instance: ServiceInstance) => boolean {
  const wanted = params.getAll("tag").map((t) => t.toLowerCase());
  return (instance) => {
    const tags = instance.tags.map((t) => t.toLowerCase());
    return wanted.every((t) => tags.includes(t));
  };
}

/** Applies `?filter=` (compiled once per request: a bad expression fails before blocking). */
export function filterRows<T>(filter: string | undefined, schema: FilterSchema): (rows: T[]) => T[] {
  if (filter === undefined || filter.trim() === "") return (rows) => rows;
  const predicate = compileFilter(filter, schema);
  return (rows) => rows.filter((row) => predicate(row));
}

export function canSeeInstance(authz: Authorizer, instance: ServiceInstance): boolean {
  return authz.allowed("service", instance.service, "read") && authz.allowed("node", instance.node, "read");
}
