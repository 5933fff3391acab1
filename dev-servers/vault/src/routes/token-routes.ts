/**
 * @module `auth/token/`: create (and create-orphan), lookup-self and lookup, renew-self and renew,
 * revoke-self and revoke. Answers carry `auth` (create, renew) or `data` (lookup) as Vault's do.
 */
import type { Operation } from "../engines/secret-engine.ts";
import { badRequest, permissionDenied, unsupportedPath, type VaultAnswer } from "../http/vault-answer.ts";
import type { TokenRecord } from "../state/token-store.ts";
import type { VaultState } from "../state/vault-state.ts";
import { ttlSeconds } from "../state/vault-time.ts";

export function tokenRoute(state: VaultState, caller: TokenRecord, operation: Operation, path: string, body: Record<string, unknown>): VaultAnswer {
  const tokens = state.tokens;
  const action = path.slice("auth/token/".length);
  const other = (): TokenRecord => {
    if (typeof body.token !== "string" || body.token === "") throw badRequest("missing token to look up");
    const found = tokens.find(body.token);
    if (!found) throw badRequest("bad token");
    return found;
  };
  switch (`${operation} ${action}`) {
    case "write create":
    case "write create-orphan": {
      const token = tokens.create(caller, {
        policies: stringList(body.policies),
        ttl: ttlSeconds(body.ttl, "ttl"),
        explicitMaxTtl: ttlSeconds(body.explicit_max_ttl, "explicit_max_ttl"),
        renewable: body.renewable === undefined ? undefined : body.renewable === true,
        displayName: typeof body.display_name === "string" ? body.display_name : undefined,
        meta: body.meta && typeof body.meta === "object" ? body.meta as Record<string, string> : undefined,
        numUses: typeof body.num_uses === "number" ? body.num_uses : undefined,
        orphan: action === "create-orphan" || body.no_parent === true,
        noDefaultPolicy: body.no_default_policy === true,
      });
      return { auth: tokens.authData(token) };
    }
    case "read lookup-self":
    case "write lookup-self":
      return { data: tokens.lookupData(caller) };
    case "write lookup":
      return { data: tokens.lookupData(other()) };
    case "write renew-self":
      return { auth: tokens.authData(tokens.renew(caller, ttlSeconds(body.increment, "increment"))) };
    case "write renew":
      return { auth: tokens.authData(tokens.renew(other(), ttlSeconds(body.increment, "increment"))) };
    case "write revoke-self":
      tokens.revoke(caller.id);
      return undefined;
    case "write revoke":
      if (!caller.policies.includes("root")) throw permissionDenied();
      tokens.revoke(other().id);
      return undefined;
    default:
      throw unsupportedPath();
  }
}

function stringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.split(",").map((item) => item.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw badRequest('error converting input for field "policies": expected a list of strings');
}
