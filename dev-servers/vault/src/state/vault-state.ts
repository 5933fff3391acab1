/**
 * @module The whole server's state: the token store, and per namespace (the `X-Vault-Namespace`
 * header; "" is the root namespace) a table of mounts. Every namespace starts with `secret/` as
 * KV v2 and `kv/` as KV v1; a namespace exists as soon as a request names it (a dev-server
 * simplification: Vault Enterprise needs it created first).
 */
import type { SecretEngine } from "../engines/secret-engine.ts";
import { KvV1Engine } from "../engines/kv-v1.ts";
import { KvV2Engine } from "../engines/kv-v2.ts";
import { badRequest } from "../http/vault-answer.ts";
import { TokenStore } from "./token-store.ts";
import { LeaseStore } from "./lease-store.ts";
import type { ConsulTokenSink } from "../engines/consul-engine.ts";

export interface Mount {
  /** With a trailing slash: `secret/`. */
  readonly path: string;
  readonly engine: SecretEngine;
  readonly accessor: string;
  readonly uuid: string;
  readonly description: string;
}

/** Paths Vault reserves for its own backends; no secrets engine may be mounted there. */
const RESERVED = ["sys/", "auth/", "cubbyhole/", "identity/"];

export class VaultState {
  readonly tokens: TokenStore;
  /** Leases of dynamic secrets (the Consul engine's tokens), expiring on `clock`. */
  readonly leases: LeaseStore;
  /** Where the Consul secrets engine's tokens go. */
  readonly consulTokens: ConsulTokenSink | undefined;
  readonly #namespaces = new Map<string, Map<string, Mount>>();

  readonly clock: () => number;

  constructor(rootToken: string, clock: () => number, consulTokens?: ConsulTokenSink) {
    this.clock = clock;
    this.tokens = new TokenStore(rootToken, clock);
    this.leases = new LeaseStore(clock);
    this.consulTokens = consulTokens;
  }

  mounts(namespace: string): Map<string, Mount> {
    let mounts = this.#namespaces.get(namespace);
    if (!mounts) {
      mounts = new Map();
      this.#namespaces.set(namespace, mounts);
      this.enable(namespace, "secret/", new KvV2Engine(this.clock), "key/value secret storage");
      this.enable(namespace, "kv/", new KvV1Engine(), "key/value secret storage (version 1)");
    }
    return mounts;
  }

  enable(namespace: string, path: string, engine: SecretEngine, description = ""): Mount {
    const mounts = this.mounts(namespace);
    const normalized = path.replace(/^\/+/, "").replace(/\/*$/, "/");
    if (normalized === "/" || RESERVED.some((reserved) => normalized.startsWith(reserved))) {
      throw badRequest(`cannot mount at reserved path "${normalized}"`);
    }
    for (const existing of mounts.keys()) {
      if (existing.startsWith(normalized) || normalized.startsWith(existing)) throw badRequest(`path is already in use at ${existing}`);
    }
    const mount = { path: normalized, engine, accessor: `kv_${crypto.randomUUID().slice(0, 8)}`, uuid: crypto.randomUUID(), description };
    mounts.set(normalized, mount);
    return mount;
  }

  disable(namespace: string, path: string): void {
    this.mounts(namespace).delete(path.replace(/^\/+/, "").replace(/\/*$/, "/"));
  }

  /** The mount a request path falls in (the longest matching prefix), with the rest of the path. */
  resolve(namespace: string, path: string): { mount: Mount; rest: string } | undefined {
    let best: Mount | undefined;
    for (const mount of this.mounts(namespace).values()) {
      if ((`${path}/`.startsWith(mount.path)) && (!best || mount.path.length > best.path.length)) best = mount;
    }
    return best ? { mount: best, rest: path.slice(best.path.length) } : undefined;
  }
}
