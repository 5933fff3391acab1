/**
 * @module Watches the Vault secrets of terraform_provider blocks (`VaultSecrets.watchTemplate`):
 * once per provider, from its first resolution on. When one rotates, the provider's resolved values
 * are dropped first (the next task init renders the new value), then the listeners hear which
 * provider it was, with the rotation object Vault's client made for that change.
 */
import { errorMessage, type Logger, type SecretRotation, type VaultSecrets } from "../../../core/plugin-api/mod.ts";

export type ProviderRotationListener = (providerId: string, rotation: SecretRotation) => void;

export class ProviderRotations {
  readonly #vault: VaultSecrets;
  readonly #logger: Logger;
  readonly #watched = new Map<string, () => void>();
  readonly #listeners = new Set<ProviderRotationListener>();

  constructor(vault: VaultSecrets, logger: Logger) {
    this.#vault = vault;
    this.#logger = logger;
  }

  /** Watches `texts` (the provider's strings that read Vault) unless the provider is watched already. */
  watch(providerId: string, texts: readonly string[], invalidate: () => void): void {
    if (!this.#vault.watchTemplate || this.#watched.has(providerId) || texts.length === 0) return;
    const unsubscribes = texts.map((text) => this.#vault.watchTemplate!(text, (rotation) => {
      invalidate();
      for (const listener of this.#listeners) {
        try {
          listener(providerId, rotation);
        } catch (error) {
          this.#logger.error("a provider rotation listener failed", { provider: providerId, error: errorMessage(error) });
        }
      }
    }));
    this.#watched.set(providerId, () => unsubscribes.forEach((unsubscribe) => unsubscribe()));
  }

  onRotated(listener: ProviderRotationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    for (const unsubscribe of this.#watched.values()) unsubscribe();
    this.#watched.clear();
    this.#listeners.clear();
  }
}
