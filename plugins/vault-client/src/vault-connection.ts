/**
 * @module One node-vault client for the daemon, built from the `vault {}` block: address,
 * namespace, TLS (CA file or directory, client certificate, server name, verify), and the token —
 * read from `vault_agent_token_file` when set, and unwrapped first when `unwrap_token` says the
 * configured token is a response-wrapping token.
 */
import vault from "node-vault";
import {
  clientAgentOptions, type FileSystem, type HttpClientFactory, readTlsFiles, type VaultConfig,
} from "../../../core/plugin-api/mod.ts";
import { vaultFailure } from "./vault-failure.ts";

/** CTS gives each Vault read at start-up 5 seconds. */
export const REQUEST_TIMEOUT_MS = 5_000;

export type VaultClient = ReturnType<typeof vault>;

export async function connectVault(config: VaultConfig, fs: FileSystem, http?: HttpClientFactory): Promise<VaultClient> {
  const client = vault({
    endpoint: config.address,
    ...(config.namespace ? { namespace: config.namespace } : {}),
    requestOptions: { timeout: REQUEST_TIMEOUT_MS, ...await connectionOptions(config, fs, http) },
  });
  client.token = await configuredToken(config, fs);
  if (config.unwrap_token) {
    try {
      const unwrapped = await client.write("sys/wrapping/unwrap", {});
      client.token = String(unwrapped?.auth?.client_token ?? "");
    } catch (error) {
      throw vaultFailure("unwrap the Vault token (unwrap_token = true)", config.address, error);
    }
  }
  return client;
}

async function configuredToken(config: VaultConfig, fs: FileSystem): Promise<string> {
  if (!config.vault_agent_token_file) return config.token;
  try {
    return (await fs.readText(config.vault_agent_token_file)).trim();
  } catch (error) {
    throw vaultFailure(`read vault_agent_token_file "${config.vault_agent_token_file}"`, config.address, error);
  }
}

/**
 * How node-vault reaches Vault: CTS applies the `tls` block only when it is enabled (the default for
 * Vault) and honours every `transport` field, so both go into one connection pool from the kernel.
 * Without the kernel's HTTP service (tests that build the service by hand) only the TLS files apply.
 */
async function connectionOptions(config: VaultConfig, fs: FileSystem, http: HttpClientFactory | undefined): Promise<Record<string, unknown>> {
  const material = config.tls.enabled ? await readTlsFiles(config.tls, fs, "Vault") : undefined;
  const secure = /^https:/i.test(config.address);
  if (http) {
    const pool = http.createAgent(clientAgentOptions(secure, config.tls, config.transport, material));
    return secure ? { httpsAgent: pool.agent } : { httpAgent: pool.agent };
  }
  if (!material) return {};
  return {
    ...(material.ca.length > 0 ? { ca: [...material.ca] } : {}),
    ...(material.cert ? { cert: material.cert } : {}),
    ...(material.key ? { key: material.key } : {}),
    ...(config.tls.verify === false ? { strictSSL: false } : {}),
    ...(config.tls.server_name ? { agentOptions: { servername: config.tls.server_name } } : {}),
  };
}
