/**
 * @module KV version 1: one unversioned JSON object per path. Reads report the 768h lease that
 * Vault's KV v1 reports (or the secret's own `ttl` field), writes and deletes answer 204.
 */
import { badRequest, notFound, unsupportedPath, type VaultAnswer } from "../http/vault-answer.ts";
import { SYSTEM_MAX_TTL_SECONDS } from "../state/token-store.ts";
import { ttlSeconds } from "../state/vault-time.ts";
import { type EngineRequest, listChildren, type SecretEngine } from "./secret-engine.ts";

export class KvV1Engine implements SecretEngine {
  readonly type = "kv";
  readonly options = { version: "1" };
  readonly #secrets = new Map<string, Record<string, unknown>>();

  handle({ operation, path, body }: EngineRequest): VaultAnswer {
    switch (operation) {
      case "read": {
        const data = this.#secrets.get(path);
        if (!data) throw notFound();
        const ttl = "ttl" in data ? ttlSeconds(data.ttl, "ttl") : undefined;
        return { data, leaseDuration: ttl ?? SYSTEM_MAX_TTL_SECONDS, mountType: "kv" };
      }
      case "list": {
        const keys = listChildren(this.#secrets.keys(), path);
        if (keys.length === 0) throw notFound();
        return { data: { keys }, mountType: "kv" };
      }
      case "write":
        if (path === "" || path.endsWith("/")) throw unsupportedPath();
        if (Object.keys(body).length === 0) throw badRequest("missing data fields");
        this.#secrets.set(path, structuredClone(body));
        return undefined;
      case "delete":
        this.#secrets.delete(path);
        return undefined;
    }
  }
}
