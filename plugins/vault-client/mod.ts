/**
 * @module The Vault client service plugin: provides `vaultSecretsToken`, which resolves
 * `{{ with secret }}` reads against the Vault of the `vault {}` block (built on the npm
 * `node-vault` package), renews the token and renewable leases, watches the secrets templates read
 * for rotation (KV v2 versions, leases, TTLs), and never logs a value.
 */
import {
  configToken, defineService, definePlugin, fileSystemToken, httpClientFactoryToken, loggerToken, secretMaskerToken, type ServiceContext,
  vaultSecretsToken,
} from "../../core/plugin-api/mod.ts";
import { VaultSecretsService } from "./src/vault-secrets-service.ts";
import { secretWatching, type VaultClientOptions, vaultClientOptionsSchema } from "./src/watch-options.ts";

export default definePlugin({
  id: "vault-client",
  kind: "service",
  logName: "client.vault",
  description: "Vault client: secrets for {{ with secret }} templates, token and lease renewal, rotation watching",
  optionsSchema: vaultClientOptionsSchema,
  deps: {},
  provides: [
    defineService({
      token: vaultSecretsToken,
      deps: { config: configToken, fs: fileSystemToken, logger: loggerToken, http: httpClientFactoryToken, secrets: secretMaskerToken },
      create: ({ config, fs, logger, http, secrets }, { options }: ServiceContext<VaultClientOptions>) =>
        new VaultSecretsService(config.vault, fs, logger, { http, secrets, watching: secretWatching(options) }),
      dispose: (service) => service.stop(),
    }),
  ],
});
