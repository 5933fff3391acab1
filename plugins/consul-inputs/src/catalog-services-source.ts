/**
 * @module Watches `/v1/catalog/services` for a `catalog-services` condition.
 *
 * Publishes name → sorted tags on every change, but (as CTS) runs the task only when the set of
 * matching service names changes: a tag change is data for the next run, not a reason for one.
 * No 1 s settling sleep as in CTS: the blocking query itself paces updates.
 */
import { consulQuery, type ConsulQuery, type InputContext } from "../../../core/plugin-api/mod.ts";
import { buildCatalogServices, sameServiceNames } from "./catalog-services-map.ts";
import type { CatalogServicesBody } from "./consul-responses.ts";
import type { CatalogServicesConditionBlock } from "./input-options.ts";
import { compileRe2, type Re2Pattern } from "./re2-regexp.ts";
import { RenderingSource } from "./rendering-source.ts";
import { compareStrings } from "./services-map.ts";

type CatalogServices = Record<string, string[]>;
/** The fields the catalog query is made of. */
type CatalogServicesSelector = Pick<CatalogServicesConditionBlock, "datacenter" | "namespace" | "node_meta">;

/**
 * The catalog query with `node-meta`. The contract's params hold one value per name, so the
 * first pair (by key) goes in `node-meta` and any further pairs become a filter on the same
 * node fields, which Consul applies before aggregating names.
 */
export function catalogServicesNodeMetaQuery(options: CatalogServicesSelector): ConsulQuery {
  const pairs = Object.keys(options.node_meta).sort(compareStrings).map((key) => [key, options.node_meta[key]!] as const);
  const [first, ...rest] = pairs;
  const filter = rest.map(([key, value]) => `NodeMeta[${JSON.stringify(key)}] == ${JSON.stringify(value)}`).join(" and ");
  return consulQuery("/v1/catalog/services", {
    dc: options.datacenter,
    ns: options.namespace,
    "node-meta": first ? `${first[0]}:${first[1]}` : undefined,
    filter,
  });
}

export class CatalogServicesSource extends RenderingSource<CatalogServices> {
  readonly #options: CatalogServicesConditionBlock;
  readonly #matcher: Re2Pattern;

  /** `options` as the kernel decoded them; it publishes `catalog_services` when `use_as_module_input`. */
  constructor(options: CatalogServicesConditionBlock, triggers: boolean) {
    super({ variable: options.use_as_module_input ? "catalog_services" : undefined, triggers });
    this.#options = options;
    this.#matcher = compileRe2(options.regexp);
  }

  protected watch(_ctx: InputContext): void {
    const query = catalogServicesNodeMetaQuery(this.#options);
    this.subscribe(query, (result) => {
      const body = isRecord(result.data) ? result.data as CatalogServicesBody : {};
      this.render(buildCatalogServices(body, (name) => this.#matcher.test(name)), query.key);
    });
  }

  protected override shouldTrigger(previous: CatalogServices, next: CatalogServices): boolean {
    return !sameServiceNames(previous, next);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
