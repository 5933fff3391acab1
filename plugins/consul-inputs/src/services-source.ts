/**
 * @module Watches the instances a `services` condition or module input selects.
 *
 * Names form: one `/v1/health/service/<name>` query per name (passing-only unless a filter is
 * given, since the filter then decides). Regexp form: `/v1/catalog/services`, then one
 * passing-only health query per matching name, added and dropped as names come and go. Unlike
 * CTS there is no fixed sleep between the two: a name's instances render as soon as its own
 * health answer arrives, and nothing renders while a newly matched name is still unanswered.
 */
import { consulQuery, type ConsulQuery, type InputContext, type ServiceInstance } from "../../../core/plugin-api/mod.ts";
import type { CatalogServicesBody, ServiceEntryBody } from "./consul-responses.ts";
import type { ServicesSelector } from "./input-options.ts";
import { compileRe2, type Re2Pattern } from "./re2-regexp.ts";
import { RenderingSource } from "./rendering-source.ts";
import { buildServicesMap } from "./services-map.ts";

type ServicesMap = Record<string, ServiceInstance>;

interface HealthSubscription {
  entries: readonly ServiceEntryBody[] | undefined;
  unsubscribe: () => void;
}

/** The health query for one service name, as CTS issues it. */
export function healthServiceQuery(name: string, options: ServicesSelector): ConsulQuery {
  const passingOnly = options.regexp !== undefined || options.filter === "";
  return consulQuery(`/v1/health/service/${encodeURIComponent(name)}`, {
    dc: options.datacenter,
    ns: options.namespace,
    filter: options.filter,
    passing: passingOnly ? "1" : undefined,
  });
}

/** The catalog query the regexp form watches for names. */
export function catalogServicesQuery(options: { readonly datacenter: string; readonly namespace: string }): ConsulQuery {
  return consulQuery("/v1/catalog/services", { dc: options.datacenter, ns: options.namespace });
}

export class ServicesSource extends RenderingSource<ServicesMap> {
  readonly #options: ServicesSelector;
  readonly #matcher: Re2Pattern | undefined;
  readonly #health = new Map<string, HealthSubscription>();
  #catalogSeen = false;
  /** Set while the name set is being changed, so partial states never render. */
  #batching = false;

  /** `options` as the kernel decoded them (one of `names`/`regexp`); `render`: whether it publishes `services`. */
  constructor(options: ServicesSelector, render: boolean, triggers: boolean) {
    super({ variable: render ? "services" : undefined, triggers });
    this.#options = options;
    this.#matcher = options.regexp === undefined ? undefined : compileRe2(options.regexp);
  }

  protected watch(_ctx: InputContext): void {
    if (this.#matcher === undefined) {
      this.#withBatch(() => {
        // A name written twice is watched once.
        for (const name of new Set(this.#options.names)) this.#watchHealth(name);
      }, "");
      return;
    }
    const query = catalogServicesQuery(this.#options);
    this.subscribe(query, (result) => {
      this.#catalogSeen = true;
      const body = (isRecord(result.data) ? result.data : {}) as CatalogServicesBody;
      const wanted = new Set(Object.keys(body).filter((name) => this.#matcher!.test(name)));
      this.#withBatch(() => {
        for (const [name, subscription] of this.#health) {
          if (wanted.has(name)) continue;
          this.#health.delete(name);
          subscription.unsubscribe();
        }
        for (const name of wanted) if (!this.#health.has(name)) this.#watchHealth(name);
      }, query.key);
    });
  }

  #watchHealth(name: string): void {
    const query = healthServiceQuery(name, this.#options);
    const subscription: HealthSubscription = { entries: undefined, unsubscribe: () => {} };
    this.#health.set(name, subscription);
    subscription.unsubscribe = this.subscribe(query, (result) => {
      if (this.#health.get(name) !== subscription) return;
      subscription.entries = Array.isArray(result.data) ? result.data as ServiceEntryBody[] : [];
      this.#update(query.key);
    });
  }

  #withBatch(change: () => void, detail: string): void {
    this.#batching = true;
    try {
      change();
    } finally {
      this.#batching = false;
    }
    this.#update(detail);
  }

  #update(detail: string): void {
    if (this.#batching || this.stopped) return;
    if (this.#matcher !== undefined && !this.#catalogSeen) return;
    const entriesByService: Record<string, readonly ServiceEntryBody[]> = {};
    for (const [name, subscription] of this.#health) {
      if (subscription.entries === undefined) return;
      entriesByService[name] = subscription.entries;
    }
    const order = this.#matcher === undefined ? "names" : "regexp";
    // Unchanged instances keep their objects from the last rendering (see sameRendering).
    this.render(buildServicesMap(entriesByService, { ...this.#options, order }, this.current), detail);
  }

  /**
   * Same keys in the same order, each the very same instance object: buildServicesMap keeps the
   * previous object of every instance whose data is unchanged, so this is the JSON comparison's
   * answer without serialising the map.
   */
  protected override sameRendering(previous: ServicesMap, next: ServicesMap): boolean {
    const keys = Object.keys(previous);
    const nextKeys = Object.keys(next);
    if (keys.length !== nextKeys.length) return false;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== nextKeys[i] || previous[keys[i]!] !== next[keys[i]!]) return false;
    }
    return true;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
