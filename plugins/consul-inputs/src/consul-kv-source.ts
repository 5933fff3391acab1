/**
 * @module Watches one KV key, or every key under a prefix, for `consul-kv` blocks.
 *
 * Runs the task on create, update and delete of the watched keys only: a write of the same
 * value (which Consul may or may not index-bump) renders the same map and is ignored.
 */
import { consulQuery, type ConsulQuery, type InputContext } from "../../../core/plugin-api/mod.ts";
import { buildConsulKv } from "./consul-kv-map.ts";
import type { KvEntryBody } from "./consul-responses.ts";
import type { ConsulKvSelector } from "./input-options.ts";
import { RenderingSource } from "./rendering-source.ts";

/**
 * `/v1/kv/<path>` with each path segment escaped (keys keep their `/`). A leading `/` is dropped,
 * as Consul's Go client does, so `/app/x` and `app/x` name the same key.
 */
export function consulKvQuery(options: ConsulKvSelector): ConsulQuery {
  const path = options.path.replace(/^\//, "").split("/").map(encodeURIComponent).join("/");
  return consulQuery(`/v1/kv/${path}`, {
    dc: options.datacenter,
    ns: options.namespace,
    // Consul reads `recurse` by presence; a value is needed because empty params are dropped.
    recurse: options.recurse ? "true" : undefined,
  });
}

export class ConsulKvSource extends RenderingSource<Record<string, string>> {
  readonly #options: ConsulKvSelector;

  /** `options` as the kernel decoded them; `render`: whether it publishes `consul_kv`. */
  constructor(options: ConsulKvSelector, render: boolean, triggers: boolean) {
    super({ variable: render ? "consul_kv" : undefined, triggers });
    this.#options = options;
  }

  protected watch(_ctx: InputContext): void {
    const query = consulKvQuery(this.#options);
    this.subscribe(query, (result) => {
      const body = Array.isArray(result.data) ? result.data as KvEntryBody[] : undefined;
      this.render(buildConsulKv(body, this.#options), query.key);
    });
  }
}
