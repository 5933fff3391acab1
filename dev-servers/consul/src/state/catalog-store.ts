/**
 * @module The catalog: nodes, service instances and health checks, with the per-service and per-node
 * indexes that blocking health/catalog queries return (bumped on deletes too, so they never go back).
 * Node and service names are case-insensitive, as in Consul's memdb indexes.
 */
import type { CatalogNode, CheckStatus, HealthCheck, ServiceInstance } from "./types.ts";
import type { WriteTx } from "./write-tx.ts";

const lower = (name: string): string => name.toLowerCase();

export class CatalogStore {
  readonly nodes: Map<string, CatalogNode> = new Map();
  /** lower(node) → service ID → instance. */
  readonly services: Map<string, Map<string, ServiceInstance>> = new Map();
  /**
   * lower(service name) → lower(node) + "\n" + service ID → instance: a health or catalog read of one
   * service visits its own instances, not all of them (100 000 instances over 1 000 services).
   */
  readonly #byService = new Map<string, Map<string, ServiceInstance>>();
  /** lower(node) → check ID → check. */
  readonly checks: Map<string, Map<string, HealthCheck>> = new Map();
  readonly serviceIndexes: Map<string, number> = new Map();
  readonly nodeIndexes: Map<string, number> = new Map();
  /** The index of a service or node never seen (server start, or the snapshot's last index). */
  floorIndex = 1;
  /** Index of the last node/service registration change (catalog/services, catalog/nodes). */
  listIndex = 0;
  /** Index of the last health-check change (health/state). */
  checksIndex = 0;

  getNode(name: string): CatalogNode | undefined {
    return this.nodes.get(lower(name));
  }

  nodeServices(node: string): ServiceInstance[] {
    return [...(this.services.get(lower(node))?.values() ?? [])].sort((a, b) => cmp(a.id, b.id));
  }

  nodeChecks(node: string): HealthCheck[] {
    return [...(this.checks.get(lower(node))?.values() ?? [])].sort((a, b) => cmp(a.checkId, b.checkId));
  }

  getService(node: string, id: string): ServiceInstance | undefined {
    return this.services.get(lower(node))?.get(id);
  }

  getCheck(node: string, id: string): HealthCheck | undefined {
    return this.checks.get(lower(node))?.get(id);
  }

  /** Every instance of `name`, ordered by node then service ID. */
  instancesOf(name: string): ServiceInstance[] {
    const out = [...(this.#byService.get(lower(name))?.values() ?? [])];
    return out.sort((a, b) => cmp(a.node, b.node) || cmp(a.id, b.id));
  }

  /** Stores an instance as loaded from a snapshot (no index, no topics). */
  loadService(instance: ServiceInstance): void {
    let byId = this.services.get(lower(instance.node));
    if (!byId) this.services.set(lower(instance.node), byId = new Map());
    this.#setInstance(byId, instance);
  }

  /** Replaces (or adds) an instance in both maps. */
  #setInstance(byId: Map<string, ServiceInstance>, instance: ServiceInstance): void {
    const previous = byId.get(instance.id);
    if (previous) this.#unindex(previous);
    byId.set(instance.id, instance);
    let named = this.#byService.get(lower(instance.service));
    if (!named) this.#byService.set(lower(instance.service), named = new Map());
    named.set(`${lower(instance.node)}\n${instance.id}`, instance);
  }

  #unindex(instance: ServiceInstance): void {
    const named = this.#byService.get(lower(instance.service));
    if (named?.delete(`${lower(instance.node)}\n${instance.id}`) && named.size === 0) this.#byService.delete(lower(instance.service));
  }

  allInstances(): ServiceInstance[] {
    const out: ServiceInstance[] = [];
    for (const byId of this.services.values()) out.push(...byId.values());
    return out.sort((a, b) => cmp(a.node, b.node) || cmp(a.id, b.id));
  }

  allChecks(): HealthCheck[] {
    const out: HealthCheck[] = [];
    for (const byId of this.checks.values()) out.push(...byId.values());
    return out.sort((a, b) => cmp(a.node, b.node) || cmp(a.checkId, b.checkId));
  }

  serviceIndex(name: string): number {
    return this.serviceIndexes.get(lower(name)) ?? this.floorIndex;
  }

  nodeIndex(name: string): number {
    return this.nodeIndexes.get(lower(name)) ?? this.floorIndex;
  }

  /** Marks a change to a service's data (instances, their checks, their nodes). */
  touchService(tx: WriteTx, name: string): void {
    this.serviceIndexes.set(lower(name), tx.index);
    tx.topics.add(`svc:${lower(name)}`);
  }

  /** Marks a change to a node; every service on it sees a new index too (node checks are in their entries). */
  touchNode(tx: WriteTx, name: string): void {
    this.nodeIndexes.set(lower(name), tx.index);
    tx.topics.add(`node:${lower(name)}`);
    for (const instance of this.services.get(lower(name))?.values() ?? []) this.touchService(tx, instance.service);
  }

  /** Node or service registrations changed: catalog/services and catalog/nodes readers wake. */
  #listChanged(tx: WriteTx): void {
    this.listIndex = tx.index;
    tx.topics.add("catalog:list");
  }

  /** A check changed: health/state readers wake. */
  #checksChanged(tx: WriteTx): void {
    this.checksIndex = tx.index;
    tx.topics.add("catalog:checks");
  }

  putNode(tx: WriteTx, node: Omit<CatalogNode, "createIndex" | "modifyIndex">): void {
    const existing = this.nodes.get(lower(node.node));
    if (existing && sameJson(strip(existing), node)) return;
    this.nodes.set(lower(node.node), {
      ...node, node: existing?.node ?? node.node,
      createIndex: existing?.createIndex ?? tx.index, modifyIndex: tx.index,
    });
    this.touchNode(tx, node.node);
    this.#listChanged(tx);
  }

  putService(tx: WriteTx, instance: Omit<ServiceInstance, "createIndex" | "modifyIndex">): void {
    let byId = this.services.get(lower(instance.node));
    if (!byId) this.services.set(lower(instance.node), byId = new Map());
    const existing = byId.get(instance.id);
    if (existing && sameJson(strip(existing), instance)) return;
    this.#setInstance(byId, { ...instance, createIndex: existing?.createIndex ?? tx.index, modifyIndex: tx.index });
    if (existing && lower(existing.service) !== lower(instance.service)) this.touchService(tx, existing.service);
    this.touchService(tx, instance.service);
    this.nodeIndexes.set(lower(instance.node), tx.index);
    tx.topics.add(`node:${lower(instance.node)}`);
    this.#listChanged(tx);
  }

  putCheck(tx: WriteTx, check: Omit<HealthCheck, "createIndex" | "modifyIndex">): void {
    let byId = this.checks.get(lower(check.node));
    if (!byId) this.checks.set(lower(check.node), byId = new Map());
    const existing = byId.get(check.checkId);
    if (existing && sameJson(strip(existing), check)) return;
    byId.set(check.checkId, { ...check, createIndex: existing?.createIndex ?? tx.index, modifyIndex: tx.index });
    this.#touchCheck(tx, check.node, check.serviceName || existing?.serviceName || "");
  }

  setCheckStatus(tx: WriteTx, node: string, checkId: string, status: CheckStatus, output: string): boolean {
    const existing = this.getCheck(node, checkId);
    if (!existing) return false;
    this.putCheck(tx, { ...strip(existing), status, output });
    return true;
  }

  #touchCheck(tx: WriteTx, node: string, serviceName: string): void {
    this.#checksChanged(tx);
    if (serviceName) {
      this.touchService(tx, serviceName);
      this.nodeIndexes.set(lower(node), tx.index);
      tx.topics.add(`node:${lower(node)}`);
    } else {
      this.touchNode(tx, node);
    }
  }

  deleteCheck(tx: WriteTx, node: string, checkId: string): boolean {
    const existing = this.getCheck(node, checkId);
    if (!existing) return false;
    this.checks.get(lower(node))!.delete(checkId);
    this.#touchCheck(tx, node, existing.serviceName);
    return true;
  }

  /** Removes an instance and its checks. */
  deleteService(tx: WriteTx, node: string, id: string): boolean {
    const existing = this.getService(node, id);
    if (!existing) return false;
    this.services.get(lower(node))!.delete(id);
    this.#unindex(existing);
    for (const check of this.nodeChecks(node)) {
      if (check.serviceId === id) this.checks.get(lower(node))!.delete(check.checkId);
    }
    this.touchService(tx, existing.service);
    this.nodeIndexes.set(lower(node), tx.index);
    tx.topics.add(`node:${lower(node)}`);
    this.#listChanged(tx);
    this.#checksChanged(tx);
    return true;
  }

  deleteNode(tx: WriteTx, name: string): boolean {
    if (!this.nodes.has(lower(name))) return false;
    this.touchNode(tx, name);
    this.#listChanged(tx);
    this.#checksChanged(tx);
    this.nodes.delete(lower(name));
    for (const instance of this.services.get(lower(name))?.values() ?? []) this.#unindex(instance);
    this.services.delete(lower(name));
    this.checks.delete(lower(name));
    return true;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function strip<T extends { createIndex: number; modifyIndex: number }>(record: T): Omit<T, "createIndex" | "modifyIndex"> {
  const { createIndex: _c, modifyIndex: _m, ...rest } = record;
  return rest;
}

/** Structural equality of plain JSON-ish records, key order ignored. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => cmp(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
