/**
 * @module The `api {}` block (beyond CTS): its defaults, the `CTS_TOKEN` fallback and `{{ env }}` in
 * the token (resolved at load, as in terraform_provider blocks), and the rules a schema cannot say.
 */
import { type ApiConfig, DEFAULT_API_CONFIG, parseGoDuration } from "../plugin-api/mod.ts";
import { resolveEnvTemplates } from "./env-templates.ts";
import { hasTemplate, TEMPLATE_PLACES } from "./template-syntax.ts";

type Json = Record<string, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable that holds the token when the block sets none (the CLI reads it too). */
export const TOKEN_ENV = "CTS_TOKEN";

/** Below this a slow but honest client (a large task body over a bad link) could not make it. */
const MIN_REQUEST_TIMEOUT_MS = 1_000;

const WITH_SECRET = /^\s*\{\{-?\s*with\s+secret\s+"[^"]*"/;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function buildApiConfig(raw: Json, env: Env): ApiConfig {
  const timeout = typeof raw.request_timeout === "string" ? parseGoDuration(raw.request_timeout) : undefined;
  return {
    address: (raw.address as string | undefined) ?? DEFAULT_API_CONFIG.address,
    token: resolveEnvTemplates((raw.token as string | undefined) ?? env[TOKEN_ENV] ?? "", env),
    allowed_origins: [...((raw.allowed_origins as string[] | undefined) ?? [])],
    request_timeout: timeout ?? DEFAULT_API_CONFIG.request_timeout,
    max_event_streams: (raw.max_event_streams as number | undefined) ?? DEFAULT_API_CONFIG.max_event_streams,
  };
}

/** Problems of the block, each with its path (`api.allowed_origins[1]`). */
export function apiIssues(api: ApiConfig, raw: Json, vaultEnabled: boolean): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (api.address !== "" && !isListenAddress(api.address)) {
    issues.push({ path: "api.address", message: `must be an IP address or a host name without a port (the port is "port"), got ${JSON.stringify(api.address)}` });
  }
  api.allowed_origins.forEach((origin, index) => {
    if (origin !== "*" && !isOrigin(origin)) {
      issues.push({
        path: `api.allowed_origins[${index}]`,
        message: `must be an origin such as "https://ops.example.com" (scheme, host and port, no path) or "*", got ${JSON.stringify(origin)}`,
      });
    }
  });
  const timeout = raw.request_timeout;
  if (typeof timeout === "string" && (parseGoDuration(timeout) ?? 0) < MIN_REQUEST_TIMEOUT_MS) {
    issues.push({ path: "api.request_timeout", message: `must be at least 1s, got ${JSON.stringify(timeout)}` });
  }
  if (WITH_SECRET.test(api.token)) {
    if (!vaultEnabled) {
      issues.push({ path: "api.token", message: "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)" });
    }
  } else if (hasTemplate(api.token)) {
    issues.push({ path: "api.token", message: "may hold {{ env \"X\" }} or one {{ with secret \"path\" }}...{{ end }}, no other template" });
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key !== "token" && typeof value === "string" && hasTemplate(value)) issues.push({ path: `api.${key}`, message: TEMPLATE_PLACES });
  }
  return issues;
}

/** An IPv4 or IPv6 address (no brackets) or a host name; never a port. */
function isListenAddress(address: string): boolean {
  if (address.includes(":")) return URL.canParse(`http://[${address}]/`);
  return HOST_NAME.test(address);
}

/** `scheme://host[:port]` exactly as a browser sends it in `Origin` (a trailing slash is tolerated). */
function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.origin === text.replace(/\/$/, "");
}

/**
 * The host Consul's check should call (`default_check.address`): CTS's `localhost` when the API
 * listens on every interface or on loopback, else the one address it listens on.
 */
export function checkHostOf(address: string): string {
  if (address === "" || address === "0.0.0.0" || address === "::" || address === "localhost") return "localhost";
  if (/^127\./.test(address) || address === "::1") return "localhost";
  return address.includes(":") ? `[${address}]` : address;
}
