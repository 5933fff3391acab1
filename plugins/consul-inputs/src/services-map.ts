/**
 * @module Builds CTS's `services` variable from health-service answers (§5.3 of the reference).
 *
 * Pure and synchronous so that the exact shape (keys, attributes, order, status) is unit-testable
 * against captured Consul answers.
 */
import type { ServiceInstance } from "../../../core/plugin-api/mod.ts";
import type { HealthCheckBody, ServiceEntryBody } from "./consul-responses.ts";
import { sameInstance } from "./same-instance.ts";

/** `names`: by service name, then node, then id. `regexp`: every instance by node, then id. */
export type ServicesOrder = "names" | "regexp";

/** The order, and the block's meta fields under their own names (a services block is one of these). */
export interface BuildServicesOptions {
  readonly order: ServicesOrder;
  /** Copied into every instance's `cts_user_defined_meta`. */
  readonly cts_user_defined_meta?: Readonly<Record<string, string>>;
  /** Per service name (CTS's deprecated `service` blocks); applies only while `cts_user_defined_meta` is empty. */
  readonly cts_user_defined_meta_by_service?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Consul's reserved check ids for maintenance mode; such checks report `critical`. */
const NODE_MAINTENANCE_CHECK = "_node_maintenance";
const SERVICE_MAINTENANCE_PREFIX = "_service_maintenance:";

/**
 * Aggregates an instance's checks the way Consul's client does: maintenance wins over critical,
 * critical over warning, warning over passing; no checks is passing; an unknown status makes the
 * whole answer "" (Consul cannot rank it).
 */
export function aggregateStatus(checks: readonly HealthCheckBody[] | null | undefined): string {
  let maintenance = false;
  let critical = false;
  let warning = false;
  for (const check of checks ?? []) {
    const id = check.CheckID ?? "";
    if (id === NODE_MAINTENANCE_CHECK || id.startsWith(SERVICE_MAINTENANCE_PREFIX)) {
      maintenance = true;
      continue;
    }
    switch (check.Status) {
      case "passing":
        break;
      case "warning":
        warning = true;
        break;
      case "critical":
        critical = true;
        break;
      default:
        return "";
    }
  }
  if (maintenance) return "maintenance";
  if (critical) return "critical";
  if (warning) return "warning";
  return "passing";
}

/** The map key: non-empty parts of `id.node.namespace.datacenter`, e.g. `web.node1.dc1`. */
export function serviceKey(instance: Pick<ServiceInstance, "id" | "node" | "namespace" | "node_datacenter">): string {
  return [instance.id, instance.node, instance.namespace, instance.node_datacenter].filter((p) => p !== "").join(".");
}

/**
 * One health-service entry as a CTS service instance. Instances are frozen (the contract's fields
 * are readonly), which lets renderers and fingerprints cache per instance; empty maps are one
 * shared object (100 000 instances often carry three or four empty maps each).
 */
export function toServiceInstance(
  entry: ServiceEntryBody,
  userMeta: Readonly<Record<string, string>> = {},
): ServiceInstance {
  const node = entry.Node ?? {};
  const service = entry.Service ?? {};
  const nodeAddress = node.Address ?? "";
  return Object.freeze({
    id: service.ID ?? "",
    name: service.Service ?? "",
    kind: service.Kind ?? "",
    address: service.Address ? service.Address : nodeAddress,
    port: service.Port ?? 0,
    meta: sortedRecord(service.Meta),
    tags: sortedTags(service.Tags),
    namespace: service.Namespace ?? "",
    status: aggregateStatus(entry.Checks),
    node: node.Node ?? "",
    node_id: node.ID ?? "",
    node_address: nodeAddress,
    node_datacenter: node.Datacenter ?? "",
    node_tagged_addresses: sortedRecord(node.TaggedAddresses),
    node_meta: sortedRecord(node.Meta),
    cts_user_defined_meta: sortedRecord(userMeta),
  });
}

const NO_TAGS: readonly string[] = Object.freeze([]);

/** A sorted frozen copy of the tags (Consul's own array is left as it is: other subscribers share it). */
function sortedTags(tags: readonly string[] | null | undefined): readonly string[] {
  if (!tags || tags.length === 0) return NO_TAGS;
  return Object.freeze([...tags].sort(compareStrings));
}

/**
 * Builds the `services` map from each watched service's health entries.
 * Insertion order is CTS's order, so the rendered tfvars (and change detection) are stable.
 */
export function buildServicesMap(
  entriesByService: Readonly<Record<string, readonly ServiceEntryBody[]>>,
  options: BuildServicesOptions,
  previous?: Readonly<Record<string, ServiceInstance>>,
): Record<string, ServiceInstance> {
  const byNodeThenId = (a: ServiceInstance, b: ServiceInstance) =>
    compareStrings(a.node, b.node) || compareStrings(a.id, b.id);
  const groups = options.order === "names"
    ? Object.keys(entriesByService).sort(compareStrings).map((name) => entriesByService[name] ?? [])
    : [Object.values(entriesByService).flat()];
  // The user meta is the same for every instance: sorted and frozen once.
  const shared = new Map<Readonly<Record<string, string>> | undefined, Readonly<Record<string, string>>>();
  const metaOf = (entry: ServiceEntryBody) => {
    const meta = userMetaOf(entry, options);
    let sorted = shared.get(meta);
    if (sorted === undefined) shared.set(meta, sorted = sortedRecord(meta));
    return sorted;
  };
  const result: Record<string, ServiceInstance> = {};
  for (const group of groups) {
    const instances = group.map((entry) => toServiceInstance(entry, metaOf(entry))).sort(byNodeThenId);
    for (const instance of instances) {
      const key = serviceKey(instance);
      // An unchanged instance keeps its object, so per-instance caches (rendering, fingerprints) hold.
      const before = previous?.[key];
      result[key] = before !== undefined && sameInstance(before, instance) ? before : instance;
    }
  }
  return result;
}

/** Byte-order comparison, as Go's sort of strings (not locale-aware). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const EMPTY_RECORD: Readonly<Record<string, string>> = Object.freeze({});

/** A frozen copy with keys in sorted order, so equal maps serialise equally; `{}` is one shared object. */
export function sortedRecord(value: Readonly<Record<string, string>> | null | undefined): Readonly<Record<string, string>> {
  const keys = Object.keys(value ?? {});
  if (keys.length === 0) return EMPTY_RECORD;
  if (Object.isFrozen(value) && isSorted(keys)) return value!;
  const result: Record<string, string> = {};
  for (const key of keys.sort(compareStrings)) result[key] = String(value![key]);
  return Object.freeze(result);
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (compareStrings(keys[i - 1]!, keys[i]!) >= 0) return false;
  return true;
}

function userMetaOf(entry: ServiceEntryBody, options: BuildServicesOptions): Readonly<Record<string, string>> | undefined {
  const { cts_user_defined_meta: own, cts_user_defined_meta_by_service: byService } = options;
  if (byService === undefined || Object.keys(own ?? {}).length > 0) return own;
  return byService[entry.Service?.Service ?? ""] ?? own;
}
