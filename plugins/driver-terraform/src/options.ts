/**
 * @module The `driver "terraform" {}` block: its JSON Schema and its normalised form.
 *
 * The kernel shapes the body by this schema before checking it (core/kernel/driver-body.ts): `backend`
 * is a map of labelled blocks (`backend "consul" {}` → `{ consul: {...} }`), `required_providers` a
 * map HCL may write in block syntax. Normalising still accepts the one-element lists HCL-to-JSON
 * gives, for callers that hand the body over as written.
 */
import { CtsError, type JsonSchema, parseGoDuration } from "../../../core/plugin-api/mod.ts";

/**
 * How long a command waits for a held state lock (beyond CTS, which waits 0s and fails). A Terraform
 * killed with the daemon leaves its Consul lock until Consul drops its session (15s TTL, up to 2×TTL,
 * plus the lock delay: under a minute); an apply someone runs by hand can take minutes. Five minutes
 * covers both, and a lock held longer is still reported instead of waited on forever.
 */
export const DEFAULT_LOCK_TIMEOUT = "5m";

/** Backend types CTS allows in `backend "<type>" {}`. */
export const BACKEND_TYPES = ["azurerm", "consul", "cos", "gcs", "kubernetes", "local", "manta", "pg", "s3"] as const;

export const terraformOptionsSchema: JsonSchema = {
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
      propertyNames: { enum: [...BACKEND_TYPES] },
      maxProperties: 1,
      // Labelled blocks keyed by backend type; their attributes are Terraform's.
      additionalProperties: { type: "object" },
    },
    required_providers: { type: "object" },
  },
} as JsonSchema;

export interface TerraformOptions {
  /** Informational: the binary found is used; a different version only logs a warning. */
  readonly version: string;
  /** A directory holding `terraform`/`tofu`, or the binary itself; "" = search PATH. */
  readonly path: string;
  readonly log: boolean;
  readonly persist_log: boolean;
  /** Go duration passed to Terraform's `-lock-timeout`, and how long the driver retries a held lock. */
  readonly lock_timeout: string;
  readonly lockTimeoutMs: number;
  /** `{ <type>: { ...attrs } }` or undefined for the default Consul backend. */
  readonly backend?: { readonly type: string; readonly config: Readonly<Record<string, unknown>> };
  readonly required_providers: Readonly<Record<string, unknown>>;
}

function unwrapBlock(value: unknown): Record<string, unknown> {
  const body = Array.isArray(value) ? value[0] : value;
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
}

/** The block body as written → typed options with defaults. */
export function normalizeTerraformOptions(options: Readonly<Record<string, unknown>>): TerraformOptions {
  const backends = Object.entries(unwrapBlock(options.backend));
  if (backends.length > 1) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", "Cannot configure driver \"terraform\": only one backend block may be set");
  }
  const backend = backends[0];
  if (backend && !(BACKEND_TYPES as readonly string[]).includes(backend[0])) {
    throw new CtsError(
      "CTS_ERR_CONFIG_INVALID",
      `Cannot configure driver "terraform": backend "${backend[0]}" is not one of ${BACKEND_TYPES.join(", ")}`,
    );
  }
  const lockTimeout = options.lock_timeout === undefined ? DEFAULT_LOCK_TIMEOUT : String(options.lock_timeout);
  const lockTimeoutMs = parseGoDuration(lockTimeout);
  if (lockTimeoutMs === undefined || lockTimeoutMs < 0) {
    throw new CtsError(
      "CTS_ERR_CONFIG_INVALID",
      `Cannot configure driver "terraform": lock_timeout "${lockTimeout}" is not a duration; expected a Go duration such as "5m" or "30s" ("0s" fails at once on a held lock)`,
    );
  }
  return {
    version: typeof options.version === "string" ? options.version.replace(/^v/, "") : "",
    path: typeof options.path === "string" ? options.path : "",
    log: options.log === true,
    persist_log: options.persist_log === true,
    lock_timeout: lockTimeout,
    lockTimeoutMs,
    backend: backend ? { type: backend[0], config: unwrapBlock(backend[1]) } : undefined,
    required_providers: unwrapBlock(options.required_providers),
  };
}
