/** @module The blocking Consul query a `nodes` block watches: `/v1/catalog/nodes` with dc, node-meta and filter. */
import { consulQuery, type ConsulQuery } from "@cts-runtime/plugin-api";
import type { NodesModuleInputOptions } from "./nodes-options.ts";

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The catalog query. The contract's params hold one value per name, so the first `node_meta` pair
 * (by key) goes in `node-meta` and the others become `Meta[...] == ...` terms of the filter, which
 * Consul evaluates on the same node fields; the user's filter is kept whole, in parentheses.
 */
export function nodesQuery(options: NodesModuleInputOptions): ConsulQuery {
  const pairs = Object.keys(options.node_meta).sort(byCodeUnit).map((key) => [key, options.node_meta[key]!] as const);
  const [first, ...rest] = pairs;
  const terms = rest.map(([key, value]) => `Meta[${JSON.stringify(key)}] == ${JSON.stringify(value)}`);
  if (options.filter.trim() !== "") terms.unshift(rest.length > 0 ? `(${options.filter})` : options.filter);
  return consulQuery("/v1/catalog/nodes", {
    dc: options.datacenter,
    "node-meta": first ? `${first[0]}:${first[1]}` : undefined,
    filter: terms.join(" and "),
  });
}
