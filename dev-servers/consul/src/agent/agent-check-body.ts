/** @module Turns an agent check definition (inside a service or on its own) into a catalog check + timer spec. */
import { badRequest } from "../api-error.ts";
import { field, stringField } from "../exact-json.ts";
import { checkType, durationField, parseDefinition, parseStatus } from "../routes/registration-body.ts";
import type { HealthCheck, ServiceInstance } from "../state/types.ts";
import type { ActiveCheckSpec } from "./agent-checks.ts";

export interface AgentCheck {
  readonly check: Omit<HealthCheck, "createIndex" | "modifyIndex">;
  readonly spec: ActiveCheckSpec;
}

/**
 * `position`/`count` give Consul's default IDs for service checks: `service:<id>` for a single
 * check, `service:<id>:<n>` when there are several.
 */
export function parseAgentCheck(
  body: unknown, node: string, instance: ServiceInstance | undefined, position = 0, count = 1,
): AgentCheck {
  const serviceId = instance?.id ?? "";
  const defaultId = instance ? (count > 1 ? `service:${serviceId}:${position + 1}` : `service:${serviceId}`) : "";
  const checkId = stringField(body, "CheckID") || stringField(body, "ID") || defaultId || stringField(body, "Name") || "";
  const name = stringField(body, "Name") || (instance ? `Service '${instance.service}' check` : "");
  if (checkId === "" || name === "") throw badRequest("Missing check name");
  const ttl = durationField(body, "TTL");
  const http = stringField(body, "HTTP") ?? "";
  const definition = parseDefinition(body);
  const interval = durationField(body, "Interval");
  if (http && interval === "0s") throw badRequest("Interval must be > 0 for Script, HTTP, H2PING, or TCP checks");
  const timeout = definition.Timeout === "0s" ? "10s" : definition.Timeout;
  return {
    check: {
      node, checkId, name, status: parseStatus(field(body, "Status"), "critical"),
      notes: stringField(body, "Notes") ?? "", output: "",
      serviceId, serviceName: instance?.service ?? "", serviceTags: instance ? [...instance.tags] : [],
      type: checkType(body), definition: { ...definition, Timeout: http ? timeout : definition.Timeout },
    },
    spec: {
      checkId, ttl: ttl === "0s" ? "" : ttl, http, method: definition.Method, header: definition.Header,
      body: definition.Body, interval, timeout,
      deregisterCriticalServiceAfter: definition.DeregisterCriticalServiceAfter,
    },
  };
}
