/**
 * @module Resolves CTS's dynamic provider values once per daemon, as CTS does at start-up:
 * `{{ key "path" }}` from Consul KV and `{{ with secret "path" }}...{{ end }}` from Vault (through
 * `vaultSecretsToken`); `{{ env }}` was resolved at config load. A provider whose arguments took a
 * Vault value is marked `sensitive`, so that the driver keeps those values out of files.
 */
import { type ConsulClient, CtsError, type ProviderConfig, type VaultSecret, type VaultSecrets } from "../../../core/plugin-api/mod.ts";
import { hasSecret, renderSecrets, type SecretRequest, secretRequests } from "./secret-template.ts";

const KEY_TEMPLATE = /\{\{-?\s*key\s+"([^"]*)"\s*-?\}\}/g;

/** Memoized per provider id: every task sharing a provider sees the same values, read once. */
export class ProviderTemplates {
  readonly #consul: ConsulClient;
  readonly #vault: VaultSecrets;
  readonly #resolved = new Map<string, Promise<ProviderConfig>>();

  constructor(consul: ConsulClient, vault: VaultSecrets) {
    this.#consul = consul;
    this.#vault = vault;
  }

  resolve(provider: ProviderConfig, signal: AbortSignal): Promise<ProviderConfig> {
    let found = this.#resolved.get(provider.id);
    if (!found) {
      found = this.#resolveOnce(provider, signal);
      // A failure (KV key not written yet, Consul or Vault down) is retried by the next task init.
      found.catch(() => this.#resolved.delete(provider.id));
      this.#resolved.set(provider.id, found);
    }
    return found;
  }

  async #resolveOnce(provider: ProviderConfig, signal: AbortSignal): Promise<ProviderConfig> {
    const where = `terraform_provider "${provider.id}"`;
    const strings = [...stringsOf(provider.arguments), ...stringsOf(provider.task_env)];
    const keys = new Set(strings.flatMap((text) => [...text.matchAll(KEY_TEMPLATE)].map((match) => match[1]!)));
    const requests = new Map(strings.flatMap((text) => secretRequests(text, where)).map((request) => [requestKey(request), request]));
    if (keys.size === 0 && requests.size === 0) return provider;
    const values = new Map<string, string>();
    for (const key of keys) {
      const pair = await this.#consul.kvGet(key, { signal });
      if (pair === undefined) throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot resolve ${where}: Consul KV key "${key}" does not exist`);
      values.set(key, pair.value);
    }
    // Read at once: a block with many secrets costs one round trip, not one per secret.
    const read = [...requests].map(async ([id, request]): Promise<[string, VaultSecret]> => {
      try {
        return [id, await this.#vault.read(request.path, request.params)];
      } catch (error) {
        throw new CtsError("CTS_ERR_VAULT", `Cannot resolve ${where}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    const secrets = new Map(await Promise.all(read));
    const fill = <T>(value: T): T => mapStrings(value, (text) =>
      renderSecrets(text, where, (request) => secrets.get(requestKey(request))!)
        .replace(KEY_TEMPLATE, (_, key: string) => values.get(key) ?? ""));
    const sensitive = stringsOf(provider.arguments).some(hasSecret);
    return { ...provider, arguments: fill(provider.arguments), task_env: fill(provider.task_env), ...(sensitive ? { sensitive } : {}) };
  }
}

function requestKey(request: SecretRequest): string {
  return JSON.stringify([request.path, Object.entries(request.params).sort()]);
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === "string") return map(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)])) as T;
  }
  return value;
}
