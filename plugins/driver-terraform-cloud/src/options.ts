/**
 * @module The `driver "terraform-cloud" {}` block: its JSON Schema and its normalised form, with
 * CTS's environment fallbacks (TFC_HOSTNAME, TFC_ORGANIZATION, TFC_TOKEN) and the deprecated
 * `workspace_prefix`, which CTS joins to the task name with a dash (CTS GH-442).
 */
import { CtsError, type JsonSchema } from "../../../core/plugin-api/mod.ts";
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

export interface TerraformCloudTls {
  readonly enabled: boolean;
  readonly ca_cert: string;
  readonly ca_path: string;
  readonly cert: string;
  readonly key: string;
  readonly server_name: string;
  readonly verify: boolean;
}

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

function unwrap(value: unknown): Record<string, unknown> {
  const body = Array.isArray(value) ? value[0] : value;
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

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

/**
 * The checks the schema cannot make (they depend on the environment), run when the plugin
 * initialises so that `validate` reports them; the schema's own checks run right after.
 */
export function checkRequiredOptions(options: Readonly<Record<string, unknown>>, env: Env): void {
  requiredOptions(options, env);
}

/** The organization and token, written or from the environment; the one place they are required. */
function requiredOptions(options: Readonly<Record<string, unknown>>, env: Env): { organization: string; token: string } {
  const organization = text(options.organization) || env.TFC_ORGANIZATION || "";
  if (organization === "") throw invalid("organization is required (or set TFC_ORGANIZATION)");
  const token = tokenOf(options, env);
  if (token === "") throw invalid("token is required (or set TFC_TOKEN)");
  return { organization, token };
}

/** The token as written, `{{ env "X" }}` resolved (as CTS does at load), else TFC_TOKEN. */
function tokenOf(options: Readonly<Record<string, unknown>>, env: Env): string {
  return resolveEnvTemplates(text(options.token), env) || env.TFC_TOKEN || "";
}

export function normalizeTerraformCloudOptions(options: Readonly<Record<string, unknown>>, env: Env): TerraformCloudOptions {
  const hostname = normalizeHostname(text(options.hostname) || env.TFC_HOSTNAME || DEFAULT_HOSTNAME);
  const { organization, token } = requiredOptions(options, env);
  const workspaces = unwrap(options.workspaces);
  const deprecated = text(options.workspace_prefix);
  const prefix = text(workspaces.prefix);
  if (deprecated !== "" && prefix !== "") {
    throw invalid("workspace_prefix (deprecated) and workspaces.prefix are both set: keep workspaces.prefix");
  }
  const tls = unwrap(options.tls);
  const tagsOf = (name: string): string[] => list(workspaces[name]);
  return {
    hostname,
    organization,
    token,
    workspacePrefix: deprecated !== "" ? `${deprecated}-` : prefix,
    tags: tagsOf("tags"),
    tagsAllowlist: tagsOf("tags_allowlist"),
    tagsDenylist: tagsOf("tags_denylist"),
    requiredProviders: unwrap(options.required_providers),
    tls: {
      enabled: tls.enabled === true || (tls.enabled === undefined && Object.keys(tls).length > 0),
      ca_cert: text(tls.ca_cert),
      ca_path: text(tls.ca_path),
      cert: text(tls.cert),
      key: text(tls.key),
      server_name: text(tls.server_name),
      verify: tls.verify !== false,
    },
    deprecatedWorkspacePrefix: deprecated !== "",
  };
}
