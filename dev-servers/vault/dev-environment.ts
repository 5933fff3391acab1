/**
 * @module The Vault half of `cts-runtime dev -vault`: the embedded Vault-compatible server beside
 * the embedded Consul, a demo secret in it, and the config blocks that read it into the task's
 * environment, as a CTS user writes them. The token reaches the daemon through VAULT_TOKEN, so the
 * demo config on disk holds no secret.
 */
import { startVaultDevServer, type VaultDevServer } from "./src/vault-dev-server.ts";

/** Where the demo secret lives (KV v2, read through CTS's path rule without `data/`). */
const SECRET_PATH = "secret/demo";

export async function startDevVault(listen: { port: number; hostname: string }) {
  const vault = await startVaultDevServer(listen);
  const apiKey = crypto.randomUUID();
  const response = await fetch(`${vault.url}/v1/${SECRET_PATH.replace("secret/", "secret/data/")}`, {
    method: "POST",
    headers: { "X-Vault-Token": vault.rootToken },
    body: JSON.stringify({ data: { api_key: apiKey } }),
  });
  if (!response.ok) {
    await vault.stop();
    throw new Error(`Cannot write the demo secret to the embedded Vault: HTTP ${response.status}`);
  }
  return {
    url: vault.url,
    rootToken: vault.rootToken,
    configBlocks: vaultBlocks(vault),
    instructions: (dir: string) => vaultInstructions(vault, dir),
    stop: () => vault.stop(),
  };
}

/** The `vault {}` block and a provider whose task_env takes the secret. */
function vaultBlocks(vault: VaultDevServer): string {
  return `# Secrets come from the embedded Vault-compatible server (cts-runtime vault-dev); the token
# comes from the VAULT_TOKEN environment variable. The demo module receives the secret as
# DEMO_API_KEY in its environment and writes only a fingerprint of it.
vault {
  address = ${JSON.stringify(vault.url)}
}

terraform_provider "terraform" {
  task_env {
    "DEMO_API_KEY" = "{{ with secret \\"${SECRET_PATH}\\" }}{{ .Data.data.api_key }}{{ end }}"
  }
}
`;
}

function vaultInstructions(vault: VaultDevServer, dir: string): string[] {
  return [
    `    Embedded Vault:      ${vault.url}  (root token ${vault.rootToken}; the task reads ${SECRET_PATH})`,
    `    Secret fingerprint:  ${dir}/services.txt.vault  (sha256 of the secret; the secret itself is on no disk)`,
  ];
}
