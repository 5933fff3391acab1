/**
 * @module The `driver "terraform" {}` block: its JSON Schema (the one description of the block; its
 * TypeScript type is inferred from it) and the driver's view of the checked block.
 *
 * The kernel shapes the body by this schema before checking it (core/kernel/driver-body.ts): `backend`
 * is a map of labelled blocks (`backend "consul" {}` → `{ consul: {...} }`), `required_providers` a
 * map HCL may write in block syntax. The schema allows one backend of CTS's types and a Go duration
 * for `lock_timeout`; the view relies on that and adds what code needs: defaults, the duration in
 * milliseconds, the backend as its type and attributes, the version without its `v`.
 */
import { CtsError, type JsonSchema, type OptionsOf, parseGoDuration } from "../../../core/plugin-api/mod.ts";

/**
 * How long a command waits for a held state lock (beyond CTS, which waits 0s and fails). A Terraform
 * killed with the daemon leaves its Consul lock until Consul drops its session (15s TTL, up to 2×TTL,
 * plus the lock delay: under a minute); an apply someone runs by hand can take minutes. Five minutes
 * covers both, and a lock held longer is still reported instead of waited on forever.
 */
export const DEFAULT_LOCK_TIMEOUT = "5m";

/** Backend types CTS allows in `backend "<type>" {}`. */
export const BACKEND_TYPES = ["azurerm", "consul", "cos", "gcs", "kubernetes", "local", "manta", "pg", "s3"] as const;

export const terraformOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    version: { type: "string", pattern: "^(|v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?)$" },
    path: { type: "string" },
    log: { type: "boolean" },
    persist_log: { type: "boolean" },
    working_dir: { type: "string", description: "Removed in CTS 0.5; refused with the fields to use instead (removed-fields.ts)" },
    lock_timeout: {
      type: "string",
      format: "go-duration",
      description: "How long a command waits for a state lock held by someone else (Go duration, e.g. \"5m\"; \"0s\" fails at once)",
    },
    backend: {
      type: "object",
      propertyNames: { enum: BACKEND_TYPES },
      maxProperties: 1,
      // Labelled blocks keyed by backend type; their attributes are Terraform's.
      additionalProperties: { type: "object" },
    },
    required_providers: { type: "object" },
  },
} as const satisfies JsonSchema;

/** The block as the kernel hands it to the driver: checked against the schema, labelled blocks keyed by label. */
export type TerraformBlock = OptionsOf<typeof terraformOptionsSchema>;

/**
 * The driver's view of the block: every field settled (absent ones at their defaults), plus what
 * the commands and main.tf need in their own form. It earns its place: `lockTimeoutMs` is parsed
 * once for the lock-wait loop, and the backend is the `{ type, config }` main.tf renders.
 */
export interface TerraformOptions extends Required<Pick<TerraformBlock, "path" | "log" | "persist_log" | "required_providers">> {
  /** Informational, without a leading `v`: the binary found is used; a different version only logs a warning. "" = any. */
  readonly version: string;
  /** Go duration passed to Terraform's `-lock-timeout`; also how long the driver retries a held lock (`lockTimeoutMs`). */
  readonly lock_timeout: string;
  readonly lockTimeoutMs: number;
  /** The one `backend "<type>" {}` written, or undefined for the default Consul backend. */
  readonly backend?: { readonly type: string; readonly config: Readonly<Record<string, unknown>> };
}

/** The driver's view of the checked block (see TerraformOptions). */
export function normalizeTerraformOptions(options: TerraformBlock): TerraformOptions {
  const lockTimeout = options.lock_timeout ?? DEFAULT_LOCK_TIMEOUT;
  // The schema's go-duration format admits a sign: a wait cannot be negative.
  const lockTimeoutMs = parseGoDuration(lockTimeout)!;
  if (lockTimeoutMs < 0) {
    throw new CtsError(
      "CTS_ERR_CONFIG_INVALID",
      `Cannot configure driver "terraform": lock_timeout "${lockTimeout}" is not a duration; expected a Go duration such as "5m" or "30s" ("0s" fails at once on a held lock)`,
    );
  }
  const [backend] = Object.entries(options.backend ?? {});
  return {
    version: (options.version ?? "").replace(/^v/, ""),
    path: options.path ?? "",
    log: options.log ?? false,
    persist_log: options.persist_log ?? false,
    lock_timeout: lockTimeout,
    lockTimeoutMs,
    backend: backend ? { type: backend[0], config: backend[1] } : undefined,
    required_providers: options.required_providers ?? {},
  };
}
