/**
 * @module The Consul secrets engine (`consul/`, enabled with `sys/mounts/consul` type `consul`):
 * roles (`roles/<name>`: policies, ttl, max_ttl) and leased tokens (`creds/<name>`), as Vault's own
 * engine answers them. Vault creates each token in Consul through its ACL API; this dev server mints
 * it and tells the `ConsulTokenSink` its server was given (a test wires it to the embedded Consul's
 * accepted tokens), and tells it again when the lease is revoked or expires.
 */
import { badRequest, notFound, type VaultAnswer } from "../http/vault-answer.ts";
import type { LeaseStore } from "../state/lease-store.ts";
import { SYSTEM_MAX_TTL_SECONDS } from "../state/token-store.ts";
import { ttlSeconds } from "../state/vault-time.ts";
import { type EngineRequest, listChildren, type SecretEngine } from "./secret-engine.ts";

/** Where minted tokens go (Vault's own engine writes them to Consul's ACL system). */
export interface ConsulTokenSink {
  created(token: string, policies: readonly string[]): void;
  revoked(token: string): void;
}

interface Role {
  readonly policies: readonly string[];
  /** Seconds; 0 means the system default. */
  readonly ttl: number;
  readonly maxTtl: number;
}

export class ConsulEngine implements SecretEngine {
  readonly type = "consul";
  readonly options = {};
  readonly #roles = new Map<string, Role>();
  #access: Record<string, unknown> = {};
  readonly #leases: LeaseStore;
  readonly #sink: ConsulTokenSink | undefined;
  readonly #mount: string;

  constructor(mount: string, leases: LeaseStore, sink: ConsulTokenSink | undefined) {
    this.#mount = mount;
    this.#leases = leases;
    this.#sink = sink;
  }

  handle({ operation, path, body }: EngineRequest): VaultAnswer {
    if (path === "config/access") {
      if (operation === "write") {
        this.#access = { address: body.address ?? "", scheme: body.scheme ?? "http" };
        return undefined;
      }
      return { data: this.#access };
    }
    if (path === "roles" || path === "roles/") {
      const keys = listChildren(this.#roles.keys(), "");
      if (keys.length === 0) throw notFound();
      return { data: { keys } };
    }
    if (path.startsWith("roles/")) return this.#role(operation, path.slice("roles/".length), body);
    if (path.startsWith("creds/") && operation === "read") return this.#creds(path.slice("creds/".length));
    throw badRequest(`unsupported path "${path}" in the consul secrets engine`);
  }

  #role(operation: EngineRequest["operation"], name: string, body: Record<string, unknown>): VaultAnswer {
    if (operation === "read") {
      const role = this.#roles.get(name);
      if (!role) throw notFound();
      return { data: { consul_policies: role.policies, policies: role.policies, ttl: role.ttl, max_ttl: role.maxTtl, token_type: "client", local: false } };
    }
    if (operation === "delete") {
      this.#roles.delete(name);
      return undefined;
    }
    const policies = stringList(body.consul_policies ?? body.policies);
    if (policies.length === 0 && body.token_type !== "management") throw badRequest("Use either a policy document, a list of policies or roles, or a set of service or node identities, depending on your Consul version");
    this.#roles.set(name, { policies, ttl: ttlSeconds(body.ttl, "ttl") ?? 0, maxTtl: ttlSeconds(body.max_ttl, "max_ttl") ?? 0 });
    return undefined;
  }

  #creds(name: string): VaultAnswer {
    const role = this.#roles.get(name);
    if (!role) throw badRequest(`role "${name}" not found`);
    const token = crypto.randomUUID();
    const accessor = crypto.randomUUID();
    const maxTtl = role.maxTtl > 0 ? role.maxTtl : SYSTEM_MAX_TTL_SECONDS;
    const lease = this.#leases.issue({
      path: `${this.#mount}creds/${name}`, ttl: Math.min(role.ttl > 0 ? role.ttl : SYSTEM_MAX_TTL_SECONDS, maxTtl), maxTtl, renewable: true,
      revoke: () => this.#sink?.revoked(token),
    });
    this.#sink?.created(token, role.policies);
    return {
      data: { accessor, consul_namespace: "", local: false, partition: "", token },
      leaseId: lease.id, leaseDuration: this.#leases.granted(lease), renewable: true,
    };
  }
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") return value.split(",").map((item) => item.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.map(String);
  return [];
}
