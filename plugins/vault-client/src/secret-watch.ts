/**
 * @module One watched secret (a `{{ with secret }}` request some template reads): reads it again
 * when its schedule says (check-schedule.ts) or when its lease can no longer be renewed, and when
 * the value rotated hands the new one to its owner (the memo renderTemplate reads) and then tells
 * every listener, with one rotation object. A failed read keeps the value in use and tries again
 * with backoff; nothing is told.
 */
import { errorMessage, type Logger, type SecretRotation, type VaultSecret } from "../../../core/plugin-api/mod.ts";
import { nextCheckMs, rotationOf } from "./check-schedule.ts";
import type { SecretRequest } from "./secret-template.ts";

/** First wait after a failed read; doubled up to the check interval. */
const RETRY_MS = 5_000;

export interface SecretWatchDeps {
  /** Reads the secret anew (not from the memo). */
  readonly read: () => Promise<VaultSecret>;
  /** Makes `secret` the value in use (memo, lease renewal) before listeners hear of it. */
  readonly replace: (secret: VaultSecret) => void;
  readonly logger: Logger;
  readonly checkIntervalMs: number;
}

export class SecretWatch {
  readonly #request: SecretRequest;
  readonly #deps: SecretWatchDeps;
  readonly #listeners = new Set<(rotation: SecretRotation) => void>();
  #current: VaultSecret | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #checking = false;
  #failures = 0;
  #stopped = false;

  constructor(request: SecretRequest, deps: SecretWatchDeps) {
    this.#request = request;
    this.#deps = deps;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  subscribe(listener: (rotation: SecretRotation) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts from the value in use. */
  start(secret: VaultSecret): void {
    if (this.#stopped || this.#current !== undefined) return;
    this.#current = secret;
    this.#schedule();
  }

  /** The lease of the value in use is ending: read again now. */
  leaseEnding(): void {
    if (this.#stopped || this.#current === undefined) return;
    clearTimeout(this.#timer);
    void this.#check();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#stopped || this.#current === undefined) return;
    const wrote = Object.keys(this.#request.params).length > 0;
    const delay = this.#failures > 0
      ? Math.min(RETRY_MS * 2 ** (this.#failures - 1), this.#deps.checkIntervalMs)
      : nextCheckMs(this.#current, wrote, this.#deps.checkIntervalMs);
    if (delay === undefined) return;
    this.#timer = setTimeout(() => void this.#check(), delay);
  }

  async #check(): Promise<void> {
    if (this.#checking || this.#stopped) return;
    this.#checking = true;
    const path = this.#request.path;
    try {
      const next = await this.#deps.read();
      if (this.#stopped) return;
      if (this.#failures > 0) this.#deps.logger.info("secret can be checked again", { path });
      this.#failures = 0;
      const rotation = rotationOf(path, this.#current!, next);
      this.#current = next;
      this.#deps.replace(next);
      if (rotation === undefined) {
        this.#deps.logger.debug("secret checked, unchanged", { path });
        return;
      }
      this.#deps.logger.info("secret rotated", { path, cause: rotation.cause, ...(rotation.version !== undefined ? { version: rotation.version } : {}) });
      for (const listener of this.#listeners) {
        try {
          listener(rotation);
        } catch (error) {
          this.#deps.logger.error("a secret rotation listener failed", { path, error: errorMessage(error) });
        }
      }
    } catch (error) {
      if (this.#failures++ === 0) {
        this.#deps.logger.warn("cannot check a secret for rotation, the value in use stays; retrying", { path, error: errorMessage(error) });
      }
    } finally {
      this.#checking = false;
      this.#schedule();
    }
  }
}
