/**
 * @module The Terraform backend a task uses: the user's block, or CTS's default Consul backend
 * (state at `<kv_path>/terraform-env:<task>`), plus the Consul environment Terraform needs.
 */
import type { ConsulConfig, TerraformBackendBlock } from "../../../core/plugin-api/mod.ts";
import type { TerraformOptions } from "./options.ts";

export type BackendBlock = TerraformBackendBlock;

/** `consul-terraform-sync/` → `consul-terraform-sync/terraform`; a path already ending in `/terraform` is kept. */
export function defaultStatePath(kvPath: string): string {
  const trimmed = kvPath.replace(/\/+$/, "") || "consul-terraform-sync";
  return trimmed === "terraform" || trimmed.endsWith("/terraform") ? trimmed : `${trimmed}/terraform`;
}

function consulDefaults(consul: ConsulConfig): Record<string, unknown> {
  const config: Record<string, unknown> = {
    address: consul.address,
    gzip: true,
    path: defaultStatePath(consul.kv_path),
  };
  if (consul.tls.enabled) {
    config.scheme = "https";
    if (consul.tls.ca_cert) config.ca_file = consul.tls.ca_cert;
    if (consul.tls.cert) config.cert_file = consul.tls.cert;
    if (consul.tls.key) config.key_file = consul.tls.key;
  }
  return config;
}

/**
 * The backend block for main.tf. A user `backend "consul"` is merged over the defaults; any other
 * type is used as written. The Consul token is never written: Terraform reads CONSUL_HTTP_TOKEN.
 */
export function resolveBackend(options: TerraformOptions, consul: ConsulConfig): BackendBlock {
  if (!options.backend) return { type: "consul", config: consulDefaults(consul) };
  if (options.backend.type === "consul") {
    return { type: "consul", config: { ...consulDefaults(consul), ...options.backend.config } };
  }
  return options.backend;
}

/** Environment for a Terraform process talking to Consul (backend and `consul` providers). */
export function consulEnvironment(consul: ConsulConfig): Record<string, string> {
  const env: Record<string, string> = { CONSUL_HTTP_ADDR: consul.address };
  if (consul.token) env.CONSUL_HTTP_TOKEN = consul.token;
  if (consul.auth.enabled && (consul.auth.username || consul.auth.password)) {
    env.CONSUL_HTTP_AUTH = `${consul.auth.username}:${consul.auth.password}`;
  }
  if (consul.tls.enabled) {
    env.CONSUL_HTTP_SSL = "true";
    env.CONSUL_HTTP_SSL_VERIFY = consul.tls.verify ? "true" : "false";
    if (consul.tls.ca_cert) env.CONSUL_CACERT = consul.tls.ca_cert;
    if (consul.tls.ca_path) env.CONSUL_CAPATH = consul.tls.ca_path;
    if (consul.tls.cert) env.CONSUL_CLIENT_CERT = consul.tls.cert;
    if (consul.tls.key) env.CONSUL_CLIENT_KEY = consul.tls.key;
    if (consul.tls.server_name) env.CONSUL_TLS_SERVER_NAME = consul.tls.server_name;
  }
  return env;
}
