/**
 * @module Optional ACLs: one management token, plus tokens with prefix rules per resource
 * (longest prefix wins, default deny). Without a management token ACLs are off and tokens are ignored.
 */
import { ApiError } from "./api-error.ts";

export type AclResource = "key" | "session" | "service" | "node" | "agent" | "operator";
export type AclAccess = "read" | "write";

export interface AclRule {
  readonly resource: AclResource;
  /** Name prefix the rule covers ("" = everything), like `key_prefix "app/"`. */
  readonly prefix: string;
  readonly policy: "read" | "write" | "deny";
}

/** Secret token → its rules. */
export type AclRules = Readonly<Record<string, readonly AclRule[]>>;

export const permissionDenied = (): ApiError => new ApiError(403, "Permission denied");

export class Authorizer {
  readonly #rules: readonly AclRule[] | "all";

  constructor(rules: readonly AclRule[] | "all") {
    this.#rules = rules;
  }

  static readonly allowAll: Authorizer = new Authorizer("all");

  allowed(resource: AclResource, name: string, access: AclAccess): boolean {
    if (this.#rules === "all") return true;
    let best: AclRule | undefined;
    for (const rule of this.#rules) {
      if (rule.resource !== resource || !name.startsWith(rule.prefix)) continue;
      if (!best || rule.prefix.length >= best.prefix.length) best = rule;
    }
    if (!best || best.policy === "deny") return false;
    return access === "read" || best.policy === "write";
  }

  /** Throws 403 Permission denied unless allowed. */
  require(resource: AclResource, name: string, access: AclAccess): void {
    if (!this.allowed(resource, name, access)) throw permissionDenied();
  }

  /** Write access to every key under `prefix` (recursive deletes): no deny/read rule may sit below it. */
  requireKeyWritePrefix(prefix: string): void {
    this.require("key", prefix, "write");
    if (this.#rules === "all") return;
    for (const rule of this.#rules) {
      if (rule.resource === "key" && rule.prefix.startsWith(prefix) && rule.policy !== "write") {
        throw permissionDenied();
      }
    }
  }
}

/** Token from `?token=`, `X-Consul-Token`, or `Authorization: Bearer` (Consul's order). */
export function requestToken(request: Request, params: URLSearchParams): string {
  const fromQuery = params.get("token");
  if (fromQuery) return fromQuery;
  const header = request.headers.get("X-Consul-Token");
  if (header) return header;
  const auth = request.headers.get("Authorization") ?? "";
  return /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : "";
}

export interface AclConfig {
  readonly managementToken?: string;
  readonly rules?: AclRules;
}

/**
 * The tokens the server accepts, changeable while it runs (a token created, rotated or deleted, as
 * Vault's Consul engine does through Consul's ACL API); only meaningful with a management token.
 */
export class AclTokens {
  readonly managementToken: string | undefined;
  readonly #rules: Map<string, readonly AclRule[]>;

  constructor(config: AclConfig = {}) {
    this.managementToken = config.managementToken;
    this.#rules = new Map(Object.entries(config.rules ?? {}));
  }

  /** Accepts `token` from now on, with `rules`. */
  grant(token: string, rules: readonly AclRule[]): void {
    this.#rules.set(token, rules);
  }

  /** Refuses `token` from now on ("ACL not found"). */
  revoke(token: string): void {
    this.#rules.delete(token);
  }

  rulesOf(token: string): readonly AclRule[] | undefined {
    return this.#rules.get(token);
  }
}

/** The authorizer for a request's token; unknown tokens are 403 "ACL not found". */
export function authorize(acl: AclTokens, token: string): Authorizer {
  if (!acl.managementToken) return Authorizer.allowAll;
  if (token === acl.managementToken) return Authorizer.allowAll;
  if (token === "") return new Authorizer([]);
  const rules = acl.rulesOf(token);
  if (!rules) throw new ApiError(403, "ACL not found");
  return new Authorizer(rules);
}
