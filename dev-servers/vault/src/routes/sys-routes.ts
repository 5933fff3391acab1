/**
 * @module `sys/`: health and seal status (no token needed), the mount table, enabling and
 * disabling KV mounts, and `sys/internal/ui/mounts/<path>`, which Vault's CLI and consul-template
 * ask to learn whether a path is in a KV v2 mount.
 */
import { ConsulEngine } from "../engines/consul-engine.ts";
import { KvV1Engine } from "../engines/kv-v1.ts";
import { KvV2Engine } from "../engines/kv-v2.ts";
import type { Operation } from "../engines/secret-engine.ts";
import { badRequest, notFound, unsupportedPath, type VaultAnswer } from "../http/vault-answer.ts";
import type { Mount, VaultState } from "../state/vault-state.ts";
import { ttlSeconds } from "../state/vault-time.ts";

/** The Vault release whose API this server follows. */
export const VAULT_VERSION = "1.15.6";
const CLUSTER = { cluster_name: "vault-dev-cts", cluster_id: "cts-runtime-vault-dev" };

/** Paths answered without a token, as in Vault. */
export function isUnauthenticatedSysPath(path: string): boolean {
  return path === "sys/health" || path === "sys/seal-status";
}

export function sysRoute(state: VaultState, namespace: string, operation: Operation, path: string, body: Record<string, unknown>): VaultAnswer {
  if (path === "sys/health") {
    return { bare: { initialized: true, sealed: false, standby: false, performance_standby: false, replication_performance_mode: "disabled", replication_dr_mode: "disabled", server_time_utc: Math.floor(state.clock() / 1000), version: VAULT_VERSION, ...CLUSTER } };
  }
  if (path === "sys/seal-status") {
    return { bare: { type: "shamir", initialized: true, sealed: false, t: 1, n: 1, progress: 0, nonce: "", version: VAULT_VERSION, build_date: "2024-01-01T00:00:00Z", migration: false, recovery_seal: false, storage_type: "inmem", ...CLUSTER } };
  }
  if (path === "sys/mounts" && operation === "read") {
    const table = Object.fromEntries([...state.mounts(namespace).values()].map((mount) => [mount.path, describeMount(mount)]));
    return { bare: { ...table, request_id: crypto.randomUUID(), lease_id: "", renewable: false, lease_duration: 0, data: table, wrap_info: null, warnings: null, auth: null } };
  }
  const lease = leaseRoute(state, operation, path, body);
  if (lease !== null) return lease;
  if (path.startsWith("sys/mounts/")) {
    const mountPath = path.slice("sys/mounts/".length);
    if (operation === "delete") {
      state.disable(namespace, mountPath);
      return undefined;
    }
    if (operation === "write") {
      const normalized = mountPath.replace(/^\/+/, "").replace(/\/*$/, "/");
      state.enable(namespace, mountPath, engineFor(body, state, normalized), typeof body.description === "string" ? body.description : "");
      return undefined;
    }
  }
  if (path.startsWith("sys/internal/ui/mounts/") && operation === "read") {
    const found = state.resolve(namespace, path.slice("sys/internal/ui/mounts/".length));
    if (!found) throw notFound();
    return { data: { ...describeMount(found.mount), path: found.mount.path } };
  }
  throw unsupportedPath();
}

function engineFor(body: Record<string, unknown>, state: VaultState, mount: string) {
  const options = (body.options ?? {}) as Record<string, unknown>;
  if (body.type === "kv-v2" || (body.type === "kv" && String(options.version ?? "1") === "2")) return new KvV2Engine(state.clock);
  if (body.type === "kv") return new KvV1Engine();
  if (body.type === "consul") return new ConsulEngine(mount, state.leases, state.consulTokens);
  throw badRequest(`plugin not found in the catalog: ${String(body.type)} (this dev server mounts only kv, version 1 or 2, and consul)`);
}

/**
 * `sys/leases/renew|lookup|revoke` (and the older `sys/renew`, `sys/revoke`), with the lease id in
 * the body or at the end of the path; null when `path` is not one of them.
 */
function leaseRoute(state: VaultState, operation: Operation, path: string, body: Record<string, unknown>): VaultAnswer | null {
  const match = /^sys\/(?:leases\/)?(renew|lookup|revoke)(?:\/(.+))?$/.exec(path);
  if (!match || operation !== "write" || (match[1] === "lookup" && !path.startsWith("sys/leases/"))) return null;
  const id = match[2] ?? body.lease_id;
  const leases = state.leases;
  switch (match[1]) {
    case "renew": {
      const lease = leases.renew(id, ttlSeconds(body.increment, "increment"));
      return { leaseId: lease.id, leaseDuration: leases.granted(lease), renewable: lease.renewable };
    }
    case "lookup":
      return { data: leases.lookupData(leases.find(id)) };
    default:
      if (typeof id === "string") leases.revoke(id);
      return undefined;
  }
}

function describeMount(mount: Mount): Record<string, unknown> {
  return {
    accessor: mount.accessor,
    config: { default_lease_ttl: 0, force_no_cache: false, max_lease_ttl: 0 },
    description: mount.description,
    external_entropy_access: false,
    local: false,
    options: mount.engine.options,
    plugin_version: "",
    running_plugin_version: "v0.16.1+builtin",
    running_sha256: "",
    seal_wrap: false,
    type: mount.engine.type,
    uuid: mount.uuid,
  };
}
