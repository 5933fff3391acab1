/**
 * @module The VaultSecrets service: connects once (lazily, at the first read, so a daemon whose
 * templates need no secret never talks to Vault), keeps the token renewed, and reads secrets with
 * consul-template's KV v2 path rule, keeping renewable leases alive. A secret a template reads is
 * read once; when someone watches the template (`watchTemplate`) it is read again on its schedule
 * (secret-watch.ts) and a rotated value replaces it for every later render.
 */
import {
  CtsError, errorMessage, type FileSystem, type HttpClientFactory, type Logger, type SecretMasker, type SecretRotation, type VaultConfig,
  type VaultSecret, type VaultSecrets,
} from "../../../core/plugin-api/mod.ts";
import { authOf } from "./secret-auth.ts";
import { SecretWatch } from "./secret-watch.ts";

/** consul-template's default lease duration: how often a static secret (KV) is read again. */
export const DEFAULT_CHECK_INTERVAL_MS = 300_000;

/** Whether templates' secrets are watched for rotation (`watchTemplate`), and how often static ones are read again. */
export interface SecretWatching {
  readonly enabled: boolean;
  readonly checkIntervalMs: number;
}
import { kvV2DataPath, type MountInfo } from "./kv-v2-path.ts";
import { renderSecrets, type SecretRequest, secretRequests } from "./secret-template.ts";
import { LeaseKeeper } from "./lease-keeper.ts";
import { connectVault, type VaultClient } from "./vault-connection.ts";
import { vaultFailure } from "./vault-failure.ts";

export class VaultSecretsService implements VaultSecrets {
  readonly #config: VaultConfig | undefined;
  readonly #fs: FileSystem;
  readonly #logger: Logger;
  /** The daemon's masker: every value a template prints, and the token, are secrets from then on. */
  readonly #secrets: Pick<SecretMasker, "add"> | undefined;
  readonly #leases: LeaseKeeper;
  #client: Promise<VaultClient> | undefined;
  readonly #mounts: MountInfo[] = [];
  /** Secrets read for templates, by request: each is read once per daemon, then replaced only by its watch. */
  readonly #rendered = new Map<string, Promise<VaultSecret>>();
  /** Stops the renewal of the lease in use, by request. */
  readonly #leaseStops = new Map<string, () => void>();
  /** Watched requests (`watchTemplate`). */
  readonly #watches = new Map<string, SecretWatch>();
  /** The client each watch's read used, for renewing the lease of what it read. */
  readonly #reads = new WeakMap<VaultSecret, VaultClient>();
  readonly #watching: SecretWatching;
  #probing: Promise<void> = Promise.resolve();

  readonly #http: HttpClientFactory | undefined;

  /**
   * `http`: the kernel's HTTP service, whose connection pool carries the `transport` block's settings;
   * `secrets`: the daemon's masker, which learns every value read and the token.
   */
  constructor(
    config: VaultConfig | undefined, fs: FileSystem, logger: Logger,
    services: { readonly http?: HttpClientFactory; readonly secrets?: Pick<SecretMasker, "add">; readonly watching?: SecretWatching } = {},
  ) {
    const { http, secrets } = services;
    this.#watching = services.watching ?? { enabled: true, checkIntervalMs: DEFAULT_CHECK_INTERVAL_MS };
    this.#config = config;
    this.#http = http;
    this.#fs = fs;
    this.#logger = logger;
    this.#secrets = secrets;
    this.#leases = new LeaseKeeper(logger);
  }

  get enabled(): boolean {
    return this.#config?.enabled === true;
  }

  async read(path: string, params: Readonly<Record<string, string>>): Promise<VaultSecret> {
    const { secret, client } = await this.#fetch(path, params);
    this.#keepLease(secret, client, path);
    return secret;
  }

  /** Reads `path` once; renews nothing. */
  async #fetch(path: string, params: Readonly<Record<string, string>>): Promise<{ secret: VaultSecret; client: VaultClient }> {
    const what = `read Vault secret "${path}"`;
    let client: VaultClient;
    try {
      client = await this.#connect();
    } catch (error) {
      throw new CtsError("CTS_ERR_VAULT", `Cannot ${what}: ${errorMessage(error).replace(/^Cannot /, "cannot ")}`);
    }
    const address = this.#config!.address;
    let answer;
    try {
      const dataPath = kvV2DataPath(path, await this.#mountOf(client, path));
      answer = Object.keys(params).length > 0 ? await client.write(dataPath, { ...params }) : await client.read(dataPath);
    } catch (error) {
      throw vaultFailure(what, address, error);
    }
    const auth = authOf(answer?.auth);
    if (!answer || (typeof answer.data !== "object" || answer.data === null) && auth === undefined) {
      throw new CtsError("CTS_ERR_VAULT", `Cannot ${what}: Vault answered without data`);
    }
    const secret: VaultSecret = {
      data: answer.data ?? {},
      leaseId: String(answer.lease_id ?? ""),
      leaseDuration: Number(answer.lease_duration ?? 0),
      renewable: answer.renewable === true,
      ...(auth ? { auth } : {}),
    };
    return { secret, client };
  }

  /** Keeps a renewable lease alive; `ending` hears when it cannot be (see LeaseKeeper). Returns a stop function. */
  #keepLease(secret: VaultSecret, client: VaultClient, path: string, ending?: (error?: unknown) => void): () => void {
    if (!secret.renewable || secret.leaseId === "") return () => {};
    return this.#leases.keep(`lease of "${path}"`, secret.leaseDuration, async () => {
      const renewed = await client.write("sys/leases/renew", { lease_id: secret.leaseId, increment: secret.leaseDuration });
      return renewed?.renewable ? Number(renewed.lease_duration ?? 0) : 0;
    }, ending);
  }

  async renderTemplate(text: string, where: string): Promise<string> {
    const requests = secretRequests(text, where);
    // Read at once: a string with many secrets costs one round trip, not one per secret.
    const secrets = new Map(await Promise.all(requests.map(async (request) => {
      const key = requestKey(request);
      try {
        return [key, await this.#memoized(request)] as const;
      } catch (error) {
        throw new CtsError("CTS_ERR_VAULT", `Cannot resolve ${where}: ${errorMessage(error)}`);
      }
    })));
    return renderSecrets(text, where, (request) => secrets.get(requestKey(request))!, (value) => this.#secrets?.add(value, `vault:${where}`));
  }

  watchTemplate(text: string, listener: (rotation: SecretRotation) => void): () => void {
    if (!this.#watching.enabled) return () => {};
    const unsubscribes = secretRequests(text, "a watched template").map((request) => {
      const key = requestKey(request);
      let watch = this.#watches.get(key);
      if (!watch) {
        watch = this.#newWatch(request, key);
        this.#watches.set(key, watch);
      }
      const unsubscribe = watch.subscribe(listener);
      return () => {
        unsubscribe();
        if (watch.listenerCount > 0 || this.#watches.get(key) !== watch) return;
        watch.stop();
        this.#watches.delete(key);
      };
    });
    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
  }

  stop(): void {
    this.#leases.stop();
    for (const watch of this.#watches.values()) watch.stop();
    this.#watches.clear();
  }

  /** The secret templates print for `request`: read once, then whatever its watch made current. */
  #memoized(request: SecretRequest): Promise<VaultSecret> {
    const key = requestKey(request);
    let secret = this.#rendered.get(key);
    if (!secret) {
      secret = this.#fetch(request.path, request.params).then(({ secret: read, client }) => {
        this.#useLease(key, read, client, request.path);
        return read;
      });
      secret.catch(() => this.#rendered.delete(key)); // a failed read is tried again next time
      this.#rendered.set(key, secret);
    }
    return secret;
  }

  /** `secret` is now the one in use for `key`: its lease is kept, the one it replaces let go. */
  #useLease(key: string, secret: VaultSecret, client: VaultClient, path: string): void {
    this.#leaseStops.get(key)?.();
    this.#leaseStops.set(key, this.#keepLease(secret, client, path, (error) => {
      const watch = this.#watches.get(key);
      if (watch) {
        if (error !== undefined) this.#logger.warn("cannot renew a lease, reading the secret again", { path, error: errorMessage(error) });
        watch.leaseEnding();
      } else if (error !== undefined) {
        this.#logger.error("cannot renew, the value expires at the end of its TTL", { what: `lease of "${path}"`, error: errorMessage(error) });
      }
    }));
  }

  #newWatch(request: SecretRequest, key: string): SecretWatch {
    const watch = new SecretWatch(request, {
      read: async () => {
        const { secret, client } = await this.#fetch(request.path, request.params);
        this.#reads.set(secret, client);
        return secret;
      },
      replace: (secret) => {
        this.#rendered.set(key, Promise.resolve(secret));
        const client = this.#reads.get(secret);
        if (client) this.#useLease(key, secret, client, request.path);
      },
      logger: this.#logger,
      checkIntervalMs: this.#watching.checkIntervalMs,
    });
    // From the value templates print now (read here when no template rendered it yet).
    this.#memoized(request).then((secret) => watch.start(secret), (error) => {
      this.#logger.warn("cannot read a secret to watch it", { path: request.path, error: errorMessage(error) });
    });
    return watch;
  }

  /**
   * The mount `path` is in, or undefined when Vault does not say (old Vault, or no permission).
   * Asked once per mount: Vault never nests one mount in another, so a known mount answers for
   * every path under it.
   */
  async #mountOf(client: VaultClient, path: string): Promise<MountInfo | undefined> {
    const clean = path.replace(/^\/+/, "");
    // One probe at a time: reads started together wait for the first answer instead of all asking.
    const previous = this.#probing;
    let done = () => {};
    this.#probing = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      const known = this.#mounts.find((mount) => clean.startsWith(mount.path));
      if (known) return known;
      const mount = (await client.read(`sys/internal/ui/mounts/${clean}`))?.data;
      if (typeof mount?.path !== "string") return undefined;
      const info = { path: mount.path, version: String(mount.options?.version ?? "1") };
      this.#mounts.push(info);
      return info;
    } catch {
      return undefined;
    } finally {
      done();
    }
  }

  #connect(): Promise<VaultClient> {
    if (!this.enabled) {
      return Promise.reject(new CtsError("CTS_ERR_VAULT", "Cannot read a Vault secret: Vault is not configured (set vault { address = ... } or VAULT_ADDR)"));
    }
    this.#client ??= this.#open().catch((error) => {
      this.#client = undefined; // the next read tries again
      throw error;
    });
    return this.#client;
  }

  async #open(): Promise<VaultClient> {
    const config = this.#config!;
    const client = await connectVault(config, this.#fs, this.#http);
    // The token may come from a file or an unwrap: only now is it known.
    if (client.token) this.#secrets?.add(String(client.token), "vault.token");
    if (config.renew_token) {
      try {
        const self = await client.tokenLookupSelf();
        const ttl = Number(self?.data?.ttl ?? 0);
        if (self?.data?.renewable !== true && ttl > 0) {
          this.#logger.error("the Vault token is not renewable: secrets read with it stop working when it expires", { ttl_seconds: ttl });
        } else if (self?.data?.renewable === true) {
          this.#leases.keep("Vault token", ttl, async () => {
            const renewed = await client.tokenRenewSelf({});
            return renewed?.auth?.renewable ? Number(renewed.auth.lease_duration ?? 0) : 0;
          });
        }
      } catch (error) {
        throw vaultFailure("look up the Vault token", config.address, error);
      }
    }
    this.#logger.info("connected to Vault", { address: config.address, ...(config.namespace ? { namespace: config.namespace } : {}) });
    return client;
  }
}


function requestKey(request: SecretRequest): string {
  return JSON.stringify([request.path, Object.entries(request.params).sort()]);
}
