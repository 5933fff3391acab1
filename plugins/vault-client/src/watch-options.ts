/**
 * @module The plugin's options: whether the secrets templates read are watched for rotation, and
 * how often a static one (KV) is read again. `plugin "vault-client" { options = { ... } }`.
 */
import { CtsError, type JsonSchema, type OptionsOf, parseGoDuration } from "../../../core/plugin-api/mod.ts";
import type { SecretWatching } from "./vault-secrets-service.ts";

export const vaultClientOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    watch_secrets: {
      type: "boolean", default: true,
      description: "Watch the secrets templates read (KV v2 versions, leases, TTLs) and run the tasks that use one again when it rotates; false reads each once, as CTS does.",
    },
    check_interval: {
      type: "string", format: "go-duration", default: "5m",
      description: "How often a secret without a lease (KV) is read again to see whether it changed.",
    },
  },
} as const satisfies JsonSchema;

/** The plugin's options as the kernel hands them over (checked, defaulted), typed by their schema. */
export type VaultClientOptions = OptionsOf<typeof vaultClientOptionsSchema>;

export function secretWatching(options: VaultClientOptions): SecretWatching {
  const ms = parseGoDuration(options.check_interval);
  if (ms === undefined || ms < 1_000) {
    throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot use check_interval "${options.check_interval}": expected a duration of at least 1s, such as "5m"`);
  }
  return { enabled: options.watch_secrets, checkIntervalMs: ms };
}
