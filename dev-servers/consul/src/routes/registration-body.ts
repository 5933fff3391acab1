/** @module Decoding service and check definitions from request bodies (keys case-insensitive, nulls allowed). */
import { badRequest } from "../api-error.ts";
import { field, numberField, stringField, stringListField, stringMapField } from "../exact-json.ts";
import { formatGoDuration, parseGoDuration } from "../go-duration.ts";
import type { CheckDefinition, CheckStatus, ServiceAddress, ServiceInstance } from "../state/types.ts";

export function parseStatus(value: unknown, fallback: CheckStatus): CheckStatus {
  if (value === undefined || value === null || value === "") return fallback;
  if (value === "passing" || value === "warning" || value === "critical") return value;
  throw badRequest(`Invalid check status: "${String(value)}"`);
}

/** A Go duration field given as text ("10s") or a number of nanoseconds; normalized to Go text. */
export function durationField(object: unknown, name: string): string {
  const value = field(object, name);
  if (value === undefined || value === null || value === "") return "0s";
  if (typeof value === "number") return formatGoDuration(value);
  const ns = typeof value === "string" ? parseGoDuration(value) : undefined;
  if (ns === undefined) throw badRequest(`Request decode failed: time: invalid duration "${String(value)}"`);
  return formatGoDuration(ns);
}

function taggedServiceAddresses(object: unknown): Record<string, ServiceAddress> {
  const raw = field(object, "TaggedAddresses");
  const out: Record<string, ServiceAddress> = {};
  if (typeof raw === "object" && raw !== null) {
    for (const [key, value] of Object.entries(raw)) {
      out[key] = { Address: stringField(value, "Address") ?? "", Port: numberField(value, "Port") ?? 0 };
    }
  }
  return out;
}

/** Service fields shared by the agent body (`Name`) and the catalog body (`Service`). */
export function parseService(
  body: unknown, node: string, nameField: "Name" | "Service",
): Omit<ServiceInstance, "createIndex" | "modifyIndex"> {
  const service = stringField(body, nameField) ?? "";
  if (service === "") throw badRequest(nameField === "Name" ? "Missing service name" : "Must provide service name");
  const weights = field(body, "Weights");
  const proxy = field(body, "Proxy");
  const connect = field(body, "Connect");
  return {
    node,
    id: stringField(body, "ID") || service,
    service,
    kind: stringField(body, "Kind") ?? "",
    tags: stringListField(body, "Tags"),
    address: stringField(body, "Address") ?? "",
    taggedAddresses: taggedServiceAddresses(body),
    meta: stringMapField(body, "Meta"),
    port: numberField(body, "Port") ?? 0,
    weights: {
      Passing: numberField(weights, "Passing") ?? 1,
      Warning: numberField(weights, "Warning") ?? 1,
    },
    enableTagOverride: field(body, "EnableTagOverride") === true,
    ...(proxy !== undefined && proxy !== null ? { proxy } : {}),
    ...(connect !== undefined && connect !== null ? { connect } : {}),
  };
}

export function parseDefinition(body: unknown): CheckDefinition {
  const header = field(body, "Header");
  return {
    Interval: durationField(body, "Interval"),
    Timeout: durationField(body, "Timeout"),
    DeregisterCriticalServiceAfter: durationField(body, "DeregisterCriticalServiceAfter"),
    HTTP: stringField(body, "HTTP") ?? "",
    Header: typeof header === "object" && header !== null ? header as Record<string, string[]> : null,
    Method: stringField(body, "Method") ?? "",
    Body: stringField(body, "Body") ?? "",
    TLSServerName: stringField(body, "TLSServerName") ?? "",
    TLSSkipVerify: field(body, "TLSSkipVerify") === true,
    TCP: stringField(body, "TCP") ?? "",
  };
}

/** The check's `Type` as Consul reports it. */
export function checkType(body: unknown): string {
  if (field(body, "TTL")) return "ttl";
  if (field(body, "HTTP")) return "http";
  if (field(body, "TCP")) return "tcp";
  if (field(body, "GRPC")) return "grpc";
  if (field(body, "Args") || field(body, "ScriptArgs")) return "script";
  return "";
}
