/** @module What a mounted secrets engine answers: one request, relative to its mount, in Vault's operations. */
import type { VaultAnswer } from "../http/vault-answer.ts";

/** Vault's logical operations: GET is read (or list with `?list=true`), LIST is list, POST/PUT write. */
export type Operation = "read" | "list" | "write" | "delete";

export interface EngineRequest {
  readonly operation: Operation;
  /** The path inside the mount, without leading slash (`app/db` for `/v1/secret/data/app/db`). */
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly query: URLSearchParams;
}

export interface SecretEngine {
  /** The mount's options as `sys/mounts` shows them (`{ version: "2" }` for KV v2). */
  readonly options: Readonly<Record<string, string>>;
  readonly type: string;
  handle(request: EngineRequest): VaultAnswer;
}

/** The immediate children of `prefix` among `paths`: leaf names, and folders with a trailing slash. */
export function listChildren(paths: Iterable<string>, prefix: string): string[] {
  const folder = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
  const keys = new Set<string>();
  for (const path of paths) {
    if (!path.startsWith(folder)) continue;
    const rest = path.slice(folder.length);
    const slash = rest.indexOf("/");
    keys.add(slash === -1 ? rest : rest.slice(0, slash + 1));
  }
  return [...keys].filter((key) => key !== "").sort();
}
