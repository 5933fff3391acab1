/**
 * @module The Vault client service plugin: provides `vaultSecretsToken`, which resolves
 * `{{ with secret }}` reads against the Vault of the `vault {}` block (built on the npm
 * `node-vault` package), renews the token and renewable leases, and never logs a value.
 */
import {
  configToken, defineService, definePlugin, fileSystemToken, httpClientFactoryToken, loggerToken, secretMaskerToken, vaultSecretsToken,
} from "../../core/plugin-api/mod.ts";
import { VaultSecretsService } from "./src/vault-secrets-service.ts";

export default definePlugin({
  id: "vault-client",
  kind: "service",
  logName: "client.vault",
  description: "Vault client: secrets for {{ with secret }} templates, token and lease renewal",
  deps: {},
  provides: [
    defineService({
      token: vaultSecretsToken,
      deps: { config: configToken, fs: fileSystemToken, logger: loggerToken, http: httpClientFactoryToken, secrets: secretMaskerToken },
      create: ({ config, fs, logger, http, secrets }) => new VaultSecretsService(config.vault, fs, logger, { http, secrets }),
      dispose: (service) => service.stop(),
    }),
  ],
});
