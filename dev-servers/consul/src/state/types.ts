/** @module The records the dev server stores (field names follow Consul's JSON, in camelCase). */
import type { Uint64 } from "../exact-json.ts";

export interface KvEntry {
  readonly key: string;
  /** Base64 of the value bytes; null for an empty value (Go's nil []byte). */
  readonly value: string | null;
  readonly flags: Uint64;
  readonly lockIndex: number;
  /** Holding session ID; "" when unlocked. */
  readonly session: string;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

export interface CatalogNode {
  readonly id: string;
  readonly node: string;
  readonly address: string;
  readonly datacenter: string;
  readonly taggedAddresses: Readonly<Record<string, string>>;
  readonly meta: Readonly<Record<string, string>>;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

export interface ServiceAddress {
  readonly Address: string;
  readonly Port: number;
}

export interface ServiceInstance {
  /** Node name as registered (catalog lookups are case-insensitive). */
  readonly node: string;
  readonly id: string;
  readonly service: string;
  readonly kind: string;
  readonly tags: readonly string[];
  readonly address: string;
  readonly taggedAddresses: Readonly<Record<string, ServiceAddress>>;
  readonly meta: Readonly<Record<string, string>>;
  readonly port: number;
  readonly weights: { readonly Passing: number; readonly Warning: number };
  readonly enableTagOverride: boolean;
  readonly proxy?: unknown;
  readonly connect?: unknown;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

export type CheckStatus = "passing" | "warning" | "critical";

/** The `Definition` block of a HealthCheck; durations already in Go text. */
export interface CheckDefinition {
  readonly Interval: string;
  readonly Timeout: string;
  readonly DeregisterCriticalServiceAfter: string;
  readonly HTTP: string;
  readonly Header: Readonly<Record<string, readonly string[]>> | null;
  readonly Method: string;
  readonly Body: string;
  readonly TLSServerName: string;
  readonly TLSSkipVerify: boolean;
  readonly TCP: string;
}

export interface HealthCheck {
  readonly node: string;
  readonly checkId: string;
  readonly name: string;
  readonly status: CheckStatus;
  readonly notes: string;
  readonly output: string;
  readonly serviceId: string;
  readonly serviceName: string;
  readonly serviceTags: readonly string[];
  readonly type: string;
  readonly definition: CheckDefinition;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

export interface Session {
  readonly id: string;
  readonly name: string;
  readonly node: string;
  readonly lockDelayNs: number;
  readonly behavior: "release" | "delete";
  /** As given by the client ("" when none). */
  readonly ttl: string;
  readonly nodeChecks: readonly string[];
  readonly serviceChecks: readonly { readonly ID: string; readonly Namespace: string }[] | null;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

export const EMPTY_DEFINITION: CheckDefinition = {
  Interval: "0s", Timeout: "0s", DeregisterCriticalServiceAfter: "0s", HTTP: "", Header: null,
  Method: "", Body: "", TLSServerName: "", TLSSkipVerify: false, TCP: "",
};
