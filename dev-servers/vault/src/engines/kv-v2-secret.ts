/**
 * @module One KV v2 secret: its versions (data, created, soft-deleted, destroyed) and metadata,
 * with check-and-set and the oldest versions dropped beyond `max_versions`, as Vault keeps them.
 */
import { badRequest } from "../http/vault-answer.ts";
import { vaultTimestamp } from "../state/vault-time.ts";

/** Vault keeps 10 versions when neither the mount nor the secret sets max_versions. */
const DEFAULT_MAX_VERSIONS = 10;

interface Version {
  data: Record<string, unknown> | null;
  readonly createdMs: number;
  deletedMs: number | undefined;
  destroyed: boolean;
}

export interface KvV2Settings {
  maxVersions: number;
  casRequired: boolean;
  deleteVersionAfter: string;
}

export class KvV2Secret {
  readonly #versions = new Map<number, Version>();
  currentVersion = 0;
  readonly createdMs: number;
  updatedMs: number;
  readonly settings: KvV2Settings = { maxVersions: 0, casRequired: false, deleteVersionAfter: "0s" };
  customMetadata: Record<string, string> | null = null;

  readonly #clock: () => number;

  constructor(clock: () => number) {
    this.#clock = clock;
    this.createdMs = clock();
    this.updatedMs = this.createdMs;
  }

  get hasVersions(): boolean {
    return this.#versions.size > 0;
  }

  write(data: Record<string, unknown>, cas: number | undefined, mount: KvV2Settings): Record<string, unknown> {
    if (cas === undefined && (this.settings.casRequired || mount.casRequired)) {
      throw badRequest("check-and-set parameter required for this call");
    }
    if (cas !== undefined && cas !== this.currentVersion) {
      throw badRequest("check-and-set parameter did not match the current version");
    }
    const now = this.#clock();
    this.currentVersion += 1;
    this.#versions.set(this.currentVersion, { data: structuredClone(data), createdMs: now, deletedMs: undefined, destroyed: false });
    this.updatedMs = now;
    const keep = this.settings.maxVersions || mount.maxVersions || DEFAULT_MAX_VERSIONS;
    for (const number of [...this.#versions.keys()]) if (number <= this.currentVersion - keep) this.#versions.delete(number);
    return this.versionMetadata(this.currentVersion);
  }

  /** A version's data, or undefined when it never existed or was dropped. */
  version(number: number): Version | undefined {
    return this.#versions.get(number);
  }

  versionMetadata(number: number): Record<string, unknown> {
    const version = this.#versions.get(number);
    return {
      created_time: version ? vaultTimestamp(version.createdMs) : "",
      custom_metadata: this.customMetadata,
      deletion_time: version?.deletedMs === undefined ? "" : vaultTimestamp(version.deletedMs),
      destroyed: version?.destroyed ?? false,
      version: number,
    };
  }

  softDelete(numbers: readonly number[]): void {
    const now = this.#clock();
    for (const number of numbers) {
      const version = this.#versions.get(number);
      if (version && !version.destroyed && version.deletedMs === undefined) version.deletedMs = now;
    }
  }

  undelete(numbers: readonly number[]): void {
    for (const number of numbers) {
      const version = this.#versions.get(number);
      if (version && !version.destroyed) version.deletedMs = undefined;
    }
  }

  destroy(numbers: readonly number[]): void {
    for (const number of numbers) {
      const version = this.#versions.get(number);
      if (version) {
        version.destroyed = true;
        version.data = null;
      }
    }
  }

  metadata(): Record<string, unknown> {
    const versions: Record<string, unknown> = {};
    for (const [number, version] of this.#versions) {
      versions[String(number)] = {
        created_time: vaultTimestamp(version.createdMs),
        deletion_time: version.deletedMs === undefined ? "" : vaultTimestamp(version.deletedMs),
        destroyed: version.destroyed,
      };
    }
    const numbers = [...this.#versions.keys()];
    return {
      cas_required: this.settings.casRequired,
      created_time: vaultTimestamp(this.createdMs),
      current_version: this.currentVersion,
      custom_metadata: this.customMetadata,
      delete_version_after: this.settings.deleteVersionAfter,
      max_versions: this.settings.maxVersions,
      oldest_version: numbers.length > 0 ? Math.min(...numbers) : 0,
      updated_time: vaultTimestamp(this.updatedMs),
      versions,
    };
  }
}
