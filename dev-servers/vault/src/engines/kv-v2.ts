/**
 * @module KV version 2: versioned secrets under `data/`, `metadata/`, `delete/`, `undelete/` and
 * `destroy/`, and the mount's `config`. A read of a deleted or destroyed version answers 404 with
 * its metadata, as Vault does; a path outside those prefixes answers with Vault's warning.
 */
import { badRequest, notFound, VaultError, type VaultAnswer } from "../http/vault-answer.ts";
import { KvV2Secret, type KvV2Settings } from "./kv-v2-secret.ts";
import { type EngineRequest, listChildren, type SecretEngine } from "./secret-engine.ts";

const INVALID_PATH_WARNING = "Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the Vault CLI, use 'vault kv get' for this operation.";

export class KvV2Engine implements SecretEngine {
  readonly type = "kv";
  readonly options = { version: "2" };
  readonly #secrets = new Map<string, KvV2Secret>();
  readonly #config: KvV2Settings = { maxVersions: 0, casRequired: false, deleteVersionAfter: "0s" };

  readonly #clock: () => number;

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  handle(request: EngineRequest): VaultAnswer {
    if (request.path === "config") return this.#configure(request);
    const slash = request.path.indexOf("/");
    const area = slash === -1 ? request.path : request.path.slice(0, slash);
    const path = slash === -1 ? "" : request.path.slice(slash + 1);
    switch (area) {
      case "data": return this.#data(request, path);
      case "metadata": return this.#metadata(request, path);
      case "delete": return this.#versions(request, path, (secret, numbers) => secret.softDelete(numbers));
      case "undelete": return this.#versions(request, path, (secret, numbers) => secret.undelete(numbers));
      case "destroy": return this.#versions(request, path, (secret, numbers) => secret.destroy(numbers));
      default: throw new VaultError(404, [], { warnings: [INVALID_PATH_WARNING] });
    }
  }

  #configure({ operation, body }: EngineRequest): VaultAnswer {
    if (operation === "write") {
      if (body.max_versions !== undefined) this.#config.maxVersions = nonNegativeInteger(body.max_versions, "max_versions");
      if (body.cas_required !== undefined) this.#config.casRequired = body.cas_required === true;
      if (typeof body.delete_version_after === "string") this.#config.deleteVersionAfter = body.delete_version_after;
      return undefined;
    }
    return { data: { cas_required: this.#config.casRequired, delete_version_after: this.#config.deleteVersionAfter, max_versions: this.#config.maxVersions } };
  }

  #data({ operation, body, query }: EngineRequest, path: string): VaultAnswer {
    const secret = this.#secrets.get(path);
    if (operation === "read") {
      if (!secret?.hasVersions) throw notFound();
      const asked = query.get("version");
      const number = asked && asked !== "0" ? nonNegativeInteger(asked, "version") : secret.currentVersion;
      const version = secret.version(number);
      if (!version) throw notFound();
      const metadata = secret.versionMetadata(number);
      if (version.deletedMs !== undefined || version.destroyed) {
        throw new VaultError(404, [], { data: { data: null, metadata } });
      }
      return { data: { data: version.data, metadata }, mountType: "kv" };
    }
    if (operation === "write") {
      if (path === "") throw badRequest("missing path");
      if (typeof body.data !== "object" || body.data === null || Array.isArray(body.data)) throw badRequest("no data provided");
      const options = (body.options ?? {}) as Record<string, unknown>;
      const cas = options.cas === undefined ? undefined : nonNegativeInteger(options.cas, "cas");
      const target = secret ?? new KvV2Secret(this.#clock);
      const metadata = target.write(body.data as Record<string, unknown>, cas, this.#config);
      this.#secrets.set(path, target);
      return { data: metadata, mountType: "kv" };
    }
    if (operation === "delete") {
      if (secret) secret.softDelete([secret.currentVersion]);
      return undefined;
    }
    throw new VaultError(405, ["1 error occurred:\n\t* unsupported operation\n\n"]);
  }

  #metadata({ operation, body }: EngineRequest, path: string): VaultAnswer {
    if (operation === "list") {
      const keys = listChildren([...this.#secrets].filter(([, secret]) => secret.hasVersions).map(([key]) => key), path);
      if (keys.length === 0) throw notFound();
      return { data: { keys }, mountType: "kv" };
    }
    const secret = this.#secrets.get(path);
    if (operation === "read") {
      if (!secret) throw notFound();
      return { data: secret.metadata(), mountType: "kv" };
    }
    if (operation === "delete") {
      this.#secrets.delete(path);
      return undefined;
    }
    const target = secret ?? new KvV2Secret(this.#clock);
    if (body.max_versions !== undefined) target.settings.maxVersions = nonNegativeInteger(body.max_versions, "max_versions");
    if (body.cas_required !== undefined) target.settings.casRequired = body.cas_required === true;
    if (typeof body.delete_version_after === "string") target.settings.deleteVersionAfter = body.delete_version_after;
    if (body.custom_metadata && typeof body.custom_metadata === "object") target.customMetadata = body.custom_metadata as Record<string, string>;
    this.#secrets.set(path, target);
    return undefined;
  }

  #versions({ operation, body }: EngineRequest, path: string, apply: (secret: KvV2Secret, numbers: number[]) => void): VaultAnswer {
    if (operation !== "write") throw new VaultError(405, ["1 error occurred:\n\t* unsupported operation\n\n"]);
    if (!Array.isArray(body.versions) || body.versions.length === 0) throw badRequest("no version number provided");
    const secret = this.#secrets.get(path);
    if (secret) apply(secret, body.versions.map((value) => nonNegativeInteger(value, "versions")));
    return undefined;
  }
}

function nonNegativeInteger(value: unknown, field: string): number {
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 0) {
    throw badRequest(`error converting input ${JSON.stringify(value)} for field "${field}": expected a non-negative integer`);
  }
  return number;
}
