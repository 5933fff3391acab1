/**
 * @module What CTS registers with the local Consul agent for itself: the service (ID = instance
 * id, tag `cts`) and a default HTTP check on `/v1/health`.
 */
import { formatGoDuration, type AgentServiceRegistration, type CtsConfig } from "../../../core/plugin-api/mod.ts";

/** The default check's address: `default_check.address`, else `http(s)://localhost:<port>`. */
export function healthCheckBase(config: CtsConfig, port: number = config.port): string {
  const configured = config.consul.service_registration.default_check.address;
  if (configured !== "") return configured.replace(/\/+$/, "");
  return `${config.tls.enabled ? "https" : "http"}://localhost:${port}`;
}

/** `port` is the port the API really listens on (differs from `config.port` only when that is 0). */
export function defaultCheck(config: CtsConfig, port: number = config.port): Readonly<Record<string, unknown>> {
  return {
    Name: "CTS Health Status",
    CheckID: `${config.id}-health`,
    Notes: "Check created by Consul-Terraform-Sync",
    DeregisterCriticalServiceAfter: "30m",
    Status: "critical",
    HTTP: `${healthCheckBase(config, port)}/v1/health`,
    Method: "GET",
    Interval: formatGoDuration(config.consul.service_registration.default_check.interval ?? 10_000),
    Timeout: formatGoDuration(config.consul.service_registration.default_check.timeout ?? 2_000),
    // CTS's code skips verification (its docs say otherwise): the check reaches localhost, where
    // the certificate's names rarely match.
    TLSSkipVerify: true,
  };
}

export function serviceRegistration(config: CtsConfig, port: number = config.port): AgentServiceRegistration {
  const sr = config.consul.service_registration;
  const tags = ["cts"];
  if (config.high_availability) tags.push(`cts-cluster:${config.high_availability.cluster.name}`);
  return {
    ID: config.id,
    Name: sr.service_name,
    Tags: tags,
    Port: port,
    ...(sr.address !== "" ? { Address: sr.address } : {}),
    ...(sr.namespace !== "" ? { Namespace: sr.namespace } : {}),
    ...(sr.default_check.enabled ? { Check: defaultCheck(config, port) } : {}),
  };
}
