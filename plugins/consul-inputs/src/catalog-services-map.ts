/** @module Builds CTS's `catalog_services` variable: service name → sorted tags, names sorted. */
import type { CatalogServicesBody } from "./consul-responses.ts";
import { compareStrings } from "./services-map.ts";

/** Keeps the names `matches` accepts; tags are sorted (Consul builds them from a map). */
export function buildCatalogServices(
  body: CatalogServicesBody | null | undefined,
  matches: (name: string) => boolean = () => true,
): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const name of Object.keys(body ?? {}).sort(compareStrings)) {
    if (!matches(name)) continue;
    result[name] = [...(body![name] ?? [])].sort(compareStrings);
  }
  return result;
}

/** True when both maps hold the same service names, whatever their tags. */
export function sameServiceNames(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const aNames = Object.keys(a);
  if (aNames.length !== Object.keys(b).length) return false;
  return aNames.every((name) => Object.hasOwn(b, name));
}
