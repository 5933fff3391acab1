/** @module Catalog and health records on the wire (Consul's PascalCase shapes; lists are never null). */
import type { CatalogNode, HealthCheck, ServiceInstance } from "../state/types.ts";

export function nodeJson(node: CatalogNode): Record<string, unknown> {
  return {
    ID: node.id, Node: node.node, Address: node.address, Datacenter: node.datacenter,
    TaggedAddresses: node.taggedAddresses, Meta: node.meta,
    CreateIndex: node.createIndex, ModifyIndex: node.modifyIndex,
  };
}

/** AgentService: what /agent/services, /catalog/node and health entries carry. */
export function agentServiceJson(s: ServiceInstance, datacenter?: string): Record<string, unknown> {
  return {
    ...(s.kind ? { Kind: s.kind } : {}),
    ID: s.id, Service: s.service, Tags: [...s.tags], Meta: s.meta, Port: s.port, Address: s.address,
    ...(Object.keys(s.taggedAddresses).length > 0 ? { TaggedAddresses: s.taggedAddresses } : {}),
    Weights: s.weights, EnableTagOverride: s.enableTagOverride,
    ...(s.proxy !== undefined ? { Proxy: s.proxy } : {}),
    ...(s.connect !== undefined ? { Connect: s.connect } : {}),
    CreateIndex: s.createIndex, ModifyIndex: s.modifyIndex,
    ...(datacenter ? { Datacenter: datacenter } : {}),
  };
}

/** ServiceNode: /catalog/service/:name rows. */
export function serviceNodeJson(node: CatalogNode, s: ServiceInstance): Record<string, unknown> {
  return {
    ID: node.id, Node: node.node, Address: node.address, Datacenter: node.datacenter,
    TaggedAddresses: node.taggedAddresses, NodeMeta: node.meta,
    ServiceKind: s.kind, ServiceID: s.id, ServiceName: s.service, ServiceTags: [...s.tags],
    ServiceAddress: s.address, ServiceWeights: s.weights, ServiceMeta: s.meta, ServicePort: s.port,
    ServiceTaggedAddresses: s.taggedAddresses, ServiceEnableTagOverride: s.enableTagOverride,
    ServiceProxy: s.proxy ?? { MeshGateway: {}, Expose: {} }, ServiceConnect: s.connect ?? {},
    CreateIndex: s.createIndex, ModifyIndex: s.modifyIndex,
  };
}

export function healthCheckJson(c: HealthCheck): Record<string, unknown> {
  return {
    Node: c.node, CheckID: c.checkId, Name: c.name, Status: c.status, Notes: c.notes, Output: c.output,
    ServiceID: c.serviceId, ServiceName: c.serviceName, ServiceTags: [...c.serviceTags], Type: c.type,
    Interval: c.definition.Interval === "0s" ? "" : c.definition.Interval,
    Timeout: c.definition.Timeout === "0s" ? "" : c.definition.Timeout,
    ExposedPort: 0, Definition: c.definition,
    CreateIndex: c.createIndex, ModifyIndex: c.modifyIndex,
  };
}

/** ServiceEntry: the instance, its node, its own checks plus every node-level check of that node. */
export function serviceEntryJson(
  node: CatalogNode, s: ServiceInstance, checks: readonly HealthCheck[],
): Record<string, unknown> {
  return {
    Node: nodeJson(node),
    Service: agentServiceJson(s),
    Checks: checks.filter((c) => c.serviceId === "" || c.serviceId === s.id).map(healthCheckJson),
  };
}
