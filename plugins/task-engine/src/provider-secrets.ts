/**
 * @module The terraform_provider blocks' template values and, in the daemon, the watch of the
 * Vault secrets they read (a rotated one runs its tasks again: secret-rotation-follower.ts).
 * -once and -inspect read each secret once.
 */
import {
  consulClientToken, defineService, loggerToken, runOptionsToken, secretMaskerToken, vaultSecretsToken,
} from "../../../core/plugin-api/mod.ts";
import { providerSecretsToken } from "./engine-tokens.ts";
import { ProviderRotations } from "./provider-rotations.ts";
import { ProviderTemplates } from "./provider-templates.ts";

export interface ProviderSecrets {
  readonly templates: ProviderTemplates;
  /** The daemon's watch of the providers' Vault secrets; unset in -once and -inspect. */
  readonly rotations?: ProviderRotations;
}

export const providerSecretsService = defineService({
  token: providerSecretsToken,
  deps: { consul: consulClientToken, vault: vaultSecretsToken, secrets: secretMaskerToken, runOptions: runOptionsToken, logger: loggerToken },
  create({ consul, vault, secrets, runOptions, logger }, { lifecycle }): ProviderSecrets {
    const rotations = runOptions.mode === "daemon" ? new ProviderRotations(vault, logger) : undefined;
    // Registered before the engine's stop hook, so it runs after it: the follower let go of rotations first.
    if (rotations) lifecycle.onStop(() => rotations.close());
    return Object.freeze({ templates: new ProviderTemplates(consul, vault, secrets, rotations), ...(rotations ? { rotations } : {}) });
  },
});
