/**
 * @module Resolves CTS's dynamic provider values once per daemon (until a Vault secret they read
 * rotates: provider-rotations.ts), as CTS does at start-up:
 * `{{ key "path" }}` from Consul KV and `{{ with secret "path" }}...{{ end }}` from Vault (through
 * `vaultSecretsToken`); `{{ env }}` was resolved at config load. A provider whose arguments took a
 * Vault value is marked `sensitive`, so that the driver keeps those values out of files. Every string a
 * template rendered is a secret from then on (the masker hides it wherever it appears).
 */
import { type ConsulClient, CtsError, type ProviderConfig, type SecretMasker, type VaultSecrets } from "../../../core/plugin-api/mod.ts";
import type { ProviderRotations } from "./provider-rotations.ts";

const KEY_TEMPLATE = /\{\{-?\s*key\s+"([^"]*)"\s*-?\}\}/g;
/** The start of a `{{ with secret }}` block; the vault-client plugin owns the rest of that language. */
const SECRET_TEMPLATE = /\{\{-?\s*with\s+secret\s/;

/** Memoized per provider id: every task sharing a provider sees the same values, read once. */
export class ProviderTemplates {
  readonly #consul: ConsulClient;
  readonly #vault: VaultSecrets;
  readonly #secrets: Pick<SecretMasker, "add"> | undefined;
  readonly #resolved = new Map<string, Promise<ProviderConfig>>();

  readonly #rotations: ProviderRotations | undefined;

  /** `rotations`: the daemon's watch of providers' Vault secrets (a rotated secret drops its provider's values). */
  constructor(consul: ConsulClient, vault: VaultSecrets, secrets?: Pick<SecretMasker, "add">, rotations?: ProviderRotations) {
    this.#consul = consul;
    this.#vault = vault;
    this.#secrets = secrets;
    this.#rotations = rotations;
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
    const hasSecret = strings.some((text) => SECRET_TEMPLATE.test(text));
    if (keys.size === 0 && !hasSecret) return provider;
    const values = new Map<string, string>();
    for (const key of keys) {
      const pair = await this.#consul.kvGet(key, { signal });
      if (pair === undefined) throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot resolve ${where}: Consul KV key "${key}" does not exist`);
      values.set(key, pair.value);
    }
    // Secrets first (their text is final), then KV keys, in every string of the block.
    const rendered = new Map<string, string>();
    const secretTexts = strings.filter((text) => SECRET_TEMPLATE.test(text));
    await Promise.all(secretTexts.map(async (text) => {
      rendered.set(text, await this.#vault.renderTemplate(text, where));
    }));
    this.#rotations?.watch(provider.id, secretTexts, () => this.#resolved.delete(provider.id));
    const fill = <T>(value: T): T => mapStrings(value, (text) => {
      const out = (rendered.get(text) ?? text).replace(KEY_TEMPLATE, (_, key: string) => values.get(key) ?? "");
      if (out !== text) this.#secrets?.add(out, `${where} (template)`);
      return out;
    });
    for (const [key, value] of values) this.#secrets?.add(value, `consul-kv:${key}`);
    const sensitive = stringsOf(provider.arguments).some((text) => SECRET_TEMPLATE.test(text));
    return { ...provider, arguments: fill(provider.arguments), task_env: fill(provider.task_env), ...(sensitive ? { sensitive } : {}) };
  }
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
