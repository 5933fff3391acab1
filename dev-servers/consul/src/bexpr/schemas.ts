/** @module Filterable fields per endpoint (the selector tables of Consul's catalog/health/agent docs). */
import type { FieldType, FilterSchema } from "./filter.ts";

const str: FieldType = { kind: "string" };
const int: FieldType = { kind: "int" };
const bool: FieldType = { kind: "bool" };
const strings: FieldType = { kind: "slice", elem: str };
const stringMap: FieldType = { kind: "map", value: str };
const struct = (fields: Record<string, FieldType>): FilterSchema => ({ kind: "struct", fields });

const meshGateway = struct({ Mode: str });
const upstream = struct({
  Datacenter: str, DestinationName: str, DestinationNamespace: str, DestinationType: str,
  LocalBindAddress: str, LocalBindPort: int, MeshGateway: meshGateway,
});
const proxy = struct({
  DestinationServiceID: str, DestinationServiceName: str, LocalServiceAddress: str, LocalServicePort: int,
  Mode: str, MeshGateway: meshGateway, TransparentProxy: struct({ OutboundListenerPort: int }),
  Upstreams: { kind: "slice", elem: upstream },
});
const weights = struct({ Passing: int, Warning: int });
const serviceAddresses: FieldType = { kind: "map", value: struct({ Address: str, Port: int }) };

export const AGENT_SERVICE_SCHEMA: FilterSchema = struct({
  Kind: str, ID: str, Service: str, Tags: strings, Meta: stringMap, Port: int, Address: str,
  TaggedAddresses: serviceAddresses, Weights: weights, EnableTagOverride: bool,
  Proxy: proxy, Connect: struct({ Native: bool }), Datacenter: str,
});

export const HEALTH_CHECK_SCHEMA: FilterSchema = struct({
  Node: str, CheckID: str, Name: str, Status: str, Notes: str, Output: str, ServiceID: str, ServiceName: str,
  ServiceTags: strings, Type: str,
});

export const CATALOG_NODE_SCHEMA: FilterSchema = struct({
  ID: str, Node: str, Address: str, Datacenter: str, TaggedAddresses: stringMap, Meta: stringMap,
});

export const SERVICE_ENTRY_SCHEMA: FilterSchema = struct({
  Node: CATALOG_NODE_SCHEMA,
  Service: AGENT_SERVICE_SCHEMA,
  Checks: { kind: "slice", elem: HEALTH_CHECK_SCHEMA },
});

export const SERVICE_NODE_SCHEMA: FilterSchema = struct({
  ID: str, Node: str, Address: str, Datacenter: str, TaggedAddresses: stringMap, NodeMeta: stringMap,
  ServiceKind: str, ServiceID: str, ServiceName: str, ServiceTags: strings, ServiceAddress: str,
  ServiceTaggedAddresses: serviceAddresses, ServiceMeta: stringMap, ServicePort: int,
  ServiceWeights: weights, ServiceEnableTagOverride: bool, ServiceProxy: proxy,
  ServiceConnect: struct({ Native: bool }),
});
