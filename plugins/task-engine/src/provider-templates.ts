/**
 * @module Resolves the Consul part of CTS's dynamic provider values: `{{ key "path" }}` in a
 * terraform_provider block is read from Consul KV once per daemon (CTS resolves them at start-up
 * and never again). `{{ env }}` was resolved at config load; `{{ with secret }}` needs Vault, which
 * is not read yet, so it fails the task plainly instead of handing Terraform the template text.
 */
import { type ConsulClient, CtsError, type ProviderConfig } from "../../../core/plugin-api/mod.ts";

const KEY_TEMPLATE = /\{\{-?\s*key\s+"([^"]*)"\s*-?\}\}/g;
const SECRET_TEMPLATE = /\{\{-?\s*with\s+secret\s+"[^"]*"/;

/** Memoized per provider id: every task sharing a provider sees the same values, read once. */
export class ProviderTemplates {
  readonly #consul: ConsulClient;
  readonly #resolved = new Map<string, Promise<ProviderConfig>>();

  constructor(consul: ConsulClient) {
    this.#consul = consul;
  }

  resolve(provider: ProviderConfig, signal: AbortSignal): Promise<ProviderConfig> {
    let found = this.#resolved.get(provider.id);
    if (!found) {
      found = this.#resolveOnce(provider, signal);
      // A failure (KV key not written yet, Consul down) is retried by the next task init.
      found.catch(() => this.#resolved.delete(provider.id));
      this.#resolved.set(provider.id, found);
    }
    return found;
  }

  async #resolveOnce(provider: ProviderConfig, signal: AbortSignal): Promise<ProviderConfig> {
    const keys = new Set<string>();
    collect(provider.arguments, keys, provider.id);
    collect(provider.task_env, keys, provider.id);
    if (keys.size === 0) return provider;
    const values = new Map<string, string>();
    for (const key of keys) {
      const pair = await this.#consul.kvGet(key, { signal });
      if (pair === undefined) {
        throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot resolve terraform_provider "${provider.id}": Consul KV key "${key}" does not exist`);
      }
      values.set(key, pair.value);
    }
    const fill = <T>(value: T): T => substitute(value, values);
    return { ...provider, arguments: fill(provider.arguments), task_env: fill(provider.task_env) };
  }
}

function collect(value: unknown, keys: Set<string>, providerId: string): void {
  if (typeof value === "string") {
    if (SECRET_TEMPLATE.test(value)) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot resolve terraform_provider "${providerId}": {{ with secret }} needs Vault, which cts-runtime does not read yet`);
    }
    for (const match of value.matchAll(KEY_TEMPLATE)) keys.add(match[1]!);
  } else if (Array.isArray(value)) value.forEach((item) => collect(item, keys, providerId));
  else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) collect(item, keys, providerId);
  }
}

function substitute<T>(value: T, values: ReadonlyMap<string, string>): T {
  if (typeof value === "string") return value.replace(KEY_TEMPLATE, (_, key: string) => values.get(key) ?? "") as T;
  if (Array.isArray(value)) return value.map((item) => substitute(item, values)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, values)])) as T;
  }
  return value;
}
