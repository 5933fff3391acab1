/**
 * @module The `driver "terraform-cloud" {}` block: its JSON Schema (the one description of the
 * block; its TypeScript type is inferred from it) and the driver's view of the checked block, with
 * CTS's environment fallbacks (TFC_HOSTNAME, TFC_ORGANIZATION, TFC_TOKEN) and the deprecated
 * `workspace_prefix`, which CTS joins to the task name with a dash (CTS GH-442).
 */
import { CtsError, type JsonSchema, type OptionsOf } from "../../../core/plugin-api/mod.ts";
import { resolveEnvTemplates } from "./token-template.ts";

const DRIVER = `driver "terraform-cloud"`;
export const DEFAULT_HOSTNAME = "https://app.terraform.io";
/** HCP Terraform's tag rule (CTS GH-934 was a stale stricter check). */
const TAG = "^[A-Za-z0-9:_-]{1,255}$";

// The one check of a tag: the kernel checks the block against this schema before the driver reads it.
const tags = { type: "array", items: { type: "string", pattern: TAG } } as const;

/** Nested blocks: the kernel shapes `workspaces {}` and `tls {}` into objects by this schema (core/kernel/driver-body.ts). */
export const terraformCloudOptionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    hostname: { type: "string" },
    organization: { type: "string" },
    token: { type: "string", writeOnly: true },
    workspace_prefix: { type: "string" },
    workspaces: {
      type: "object", additionalProperties: false,
      properties: { prefix: { type: "string" }, tags, tags_allowlist: tags, tags_denylist: tags },
    },
    required_providers: { type: "object" },
    tls: {
      type: "object", additionalProperties: false,
      properties: {
        enabled: { type: "boolean" }, ca_cert: { type: "string" }, ca_path: { type: "string" }, cert: { type: "string" },
        key: { type: "string" }, server_name: { type: "string" }, verify: { type: "boolean" },
      },
    },
  },
} as const satisfies JsonSchema;

/** The block as the kernel hands it to the driver: checked against the schema, nested blocks shaped. */
export type TerraformCloudBlock = OptionsOf<typeof terraformCloudOptionsSchema>;

/** The `tls {}` block with every field settled (`enabled` when the block is written, `verify` unless false). */
export type TerraformCloudTls = Required<NonNullable<TerraformCloudBlock["tls"]>>;

/** The driver's view of the block: environment fallbacks applied, the host an origin, the prefix in full. */
export interface TerraformCloudOptions {
  /** Origin, e.g. `https://app.terraform.io`. */
  readonly hostname: string;
  readonly organization: string;
  /** Secret: never logged, never in an error. */
  readonly token: string;
  /** The full prefix, dash included for the deprecated `workspace_prefix`. */
  readonly workspacePrefix: string;
  readonly tags: readonly string[];
  readonly tagsAllowlist: readonly string[];
  readonly tagsDenylist: readonly string[];
  readonly requiredProviders: Readonly<Record<string, unknown>>;
  readonly tls: TerraformCloudTls;
  /** Set when the deprecated field was used, for one start-up warning. */
  readonly deprecatedWorkspacePrefix: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function invalid(why: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure ${DRIVER}: ${why}`);
}

/** `app.terraform.io` and `https://app.terraform.io/` both give `https://app.terraform.io`. */
export function normalizeHostname(value: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(`hostname ${JSON.stringify(value)} is not a host name or URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid(`hostname ${JSON.stringify(value)} must use https (or http)`);
  return url.origin;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The organization, written or from the environment. */
const organizationOf = (written: unknown, env: Env): string => text(written) || env.TFC_ORGANIZATION || "";

/** The token as written, `{{ env "X" }}` resolved (as CTS does at load), else TFC_TOKEN. */
const tokenOf = (written: unknown, env: Env): string => resolveEnvTemplates(text(written), env) || env.TFC_TOKEN || "";

/**
 * The one place the organization and token are required: a rule of the block and the environment
 * together, which the schema cannot say. The plugin runs it when it initialises, before the kernel
 * checks the body (so it reads the body as written), so that `validate` reports it and a daemon
 * never starts without them; the driver's view relies on it.
 */
export function checkRequiredOptions(written: Readonly<Record<string, unknown>>, env: Env): void {
  if (organizationOf(written.organization, env) === "") throw invalid("organization is required (or set TFC_ORGANIZATION)");
  if (tokenOf(written.token, env) === "") throw invalid("token is required (or set TFC_TOKEN)");
}

/** The driver's view of the checked block (see TerraformCloudOptions). */
export function normalizeTerraformCloudOptions(options: TerraformCloudBlock, env: Env): TerraformCloudOptions {
  const hostname = normalizeHostname(options.hostname || env.TFC_HOSTNAME || DEFAULT_HOSTNAME);
  const workspaces = options.workspaces ?? {};
  const deprecated = options.workspace_prefix ?? "";
  const prefix = workspaces.prefix ?? "";
  if (deprecated !== "" && prefix !== "") {
    throw invalid("workspace_prefix (deprecated) and workspaces.prefix are both set: keep workspaces.prefix");
  }
  const tls = options.tls ?? {};
  return {
    hostname,
    organization: organizationOf(options.organization, env),
    token: tokenOf(options.token, env),
    workspacePrefix: deprecated !== "" ? `${deprecated}-` : prefix,
    tags: workspaces.tags ?? [],
    tagsAllowlist: workspaces.tags_allowlist ?? [],
    tagsDenylist: workspaces.tags_denylist ?? [],
    requiredProviders: options.required_providers ?? {},
    tls: {
      enabled: tls.enabled ?? Object.keys(tls).length > 0,
      ca_cert: tls.ca_cert ?? "",
      ca_path: tls.ca_path ?? "",
      cert: tls.cert ?? "",
      key: tls.key ?? "",
      server_name: tls.server_name ?? "",
      verify: tls.verify ?? true,
    },
    deprecatedWorkspacePrefix: deprecated !== "",
  };
}
