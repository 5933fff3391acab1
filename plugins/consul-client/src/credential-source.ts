/**
 * @module The credentials every request to Consul carries: the consul block's `token` and `auth`,
 * each of which may read Vault with `{{ with secret }}` (beyond CTS, CTS#825). Such a template is
 * rendered before the first request and watched: when its secret rotates the new credentials are
 * used from the next request on, and `changed` aborts so that blocking queries parked with the old
 * ones are asked again at once, at the same index. Every value ever used stays known, so no message
 * carries an old token either.
 */
import {
  type ConsulConfig, type ConsulCredentials, CtsError, errorMessage, type Logger, type VaultSecrets,
} from "../../../core/plugin-api/mod.ts";

type CredentialFields = Pick<ConsulConfig, "token" | "auth">;

/** The consul block's fields that may be `{{ with secret }}` templates, by where errors name them. */
const FIELDS = [
  ["consul.token", (c: CredentialFields) => c.token ?? ""],
  ["consul.auth.username", (c: CredentialFields) => c.auth?.username ?? ""],
  ["consul.auth.password", (c: CredentialFields) => c.auth?.password ?? ""],
] as const;

const isTemplate = (text: string): boolean => text.includes("{{");

export class CredentialSource {
  readonly #written: CredentialFields;
  readonly #vault: VaultSecrets | undefined;
  readonly #logger: Logger;
  #current: ConsulCredentials;
  #changed = new AbortController();
  readonly #listeners = new Set<() => void>();
  readonly #used = new Set<string>();
  readonly #unwatch: (() => void)[] = [];

  private constructor(written: CredentialFields, vault: VaultSecrets | undefined, logger: Logger, current: ConsulCredentials) {
    this.#written = written;
    this.#vault = vault;
    this.#logger = logger;
    this.#current = current;
    this.#remember(current);
  }

  /**
   * Renders the templates (Vault must answer: the daemon does not start without its credentials),
   * then watches them. Without `vault` (the `validate` command, which contacts nothing) a template
   * stands for no credential.
   */
  static async create(written: CredentialFields, vault: VaultSecrets | undefined, logger: Logger): Promise<CredentialSource> {
    if (vault === undefined) {
      const bare = (text: string) => (isTemplate(text) ? "" : text);
      const auth = written.auth ?? { enabled: false, username: "", password: "" };
      const current = { token: bare(written.token ?? ""), auth: { enabled: auth.enabled, username: bare(auth.username), password: bare(auth.password) } };
      return new CredentialSource(written, undefined, logger, current);
    }
    const source = new CredentialSource(written, vault, logger, await render(written, vault));
    for (const [, read] of FIELDS) {
      const text = read(written);
      if (isTemplate(text) && vault?.watchTemplate) source.#unwatch.push(vault.watchTemplate(text, () => void source.#refresh()));
    }
    return source;
  }

  current(): ConsulCredentials {
    return this.#current;
  }

  /** Aborted at the next change of credentials (a fresh signal after each). */
  get changed(): AbortSignal {
    return this.#changed.signal;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every credential value used so far (the old ones too), for redacting messages. */
  secrets(): readonly string[] {
    return [...this.#used];
  }

  close(): void {
    for (const unwatch of this.#unwatch.splice(0)) unwatch();
    this.#listeners.clear();
  }

  async #refresh(): Promise<void> {
    if (this.#vault === undefined) return;
    let next: ConsulCredentials;
    try {
      next = await render(this.#written, this.#vault);
    } catch (error) {
      this.#logger.error("cannot render the rotated Consul credentials, the ones in use stay", { error: errorMessage(error) });
      return;
    }
    if (JSON.stringify(next) === JSON.stringify(this.#current)) return;
    this.#remember(next);
    this.#current = next;
    const previous = this.#changed;
    this.#changed = new AbortController();
    this.#logger.info("Consul credentials rotated: the next requests use the new ones, watches continue");
    previous.abort(new Error("Consul credentials rotated"));
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#logger.error("a Consul credentials listener failed", { error: errorMessage(error) });
      }
    }
  }

  #remember(credentials: ConsulCredentials): void {
    for (const value of [credentials.token, credentials.auth.username, credentials.auth.password]) if (value !== "") this.#used.add(value);
  }
}

/** The credentials with each template rendered (CTS sends basic auth only when `auth.enabled`). */
async function render(written: CredentialFields, vault: VaultSecrets): Promise<ConsulCredentials> {
  const values = await Promise.all(FIELDS.map(async ([where, read]) => {
    const text = read(written);
    if (!isTemplate(text)) return text;
    if (!vault.enabled) throw new CtsError("CTS_ERR_VAULT", `Cannot read ${where} from Vault: Vault is not configured (set vault { address = ... } or VAULT_ADDR)`);
    const rendered = (await vault.renderTemplate(text, where)).trim();
    if (rendered === "") throw new CtsError("CTS_ERR_VAULT", `Cannot use ${where}: its Vault template rendered an empty value`);
    return rendered;
  }));
  const [token, username, password] = values as [string, string, string];
  // `enabled` defaults to true when a username or password is written: a template counts.
  return { token, auth: { enabled: written.auth?.enabled === true, username, password } };
}
