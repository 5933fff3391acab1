/**
 * @module CTS's "finalize" step: from the merged, schema-valid config to a complete `CtsConfig` with
 * every default and environment fallback applied (§1 of the feature reference).
 */
import type {
  ApiTlsConfig, ConsulConfig, CtsConfig, HighAvailabilityConfig, PluginReferenceConfig, ProviderConfig,
  TaskConfig, TlsFilesConfig, VaultConfig,
} from "../plugin-api/mod.ts";
import { DEFAULT_BUFFER_PERIOD, type RawBufferPeriod, resolveBufferPeriod } from "./buffer-period.ts";
import { resolveEnvTemplates } from "./env-templates.ts";
import { transportConfig } from "./transport-config.ts";
import { buildApiConfig, checkHostOf } from "./api-block.ts";
import { parseGoDuration } from "../plugin-api/mod.ts";

type Json = Record<string, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

export interface BuildConfigContext {
  readonly env: Env;
  readonly hostName: string;
  /** Resolves a plugin `source` path against the directory of the file that named it. */
  readonly resolvePluginSource: (source: string, pluginIndex: number) => string;
  readonly sources: readonly string[];
  /** The contents of `~/.vault-token`, CTS's last fallback for the Vault token (undefined: none). */
  readonly homeVaultToken?: string;
  /** Builds the tasks once the globals they inherit are known. */
  readonly buildTasks: (defaults: {
    working_dir: string; buffer_period: CtsConfig["buffer_period"]; driver: string;
  }) => TaskConfig[];
}

export function buildConfig(raw: Json, ctx: BuildConfigContext): CtsConfig {
  const port = (raw.port as number | undefined) ?? 8558;
  const tls = apiTls(obj(raw.tls));
  const api = buildApiConfig(obj(raw.api), ctx.env);
  const bufferPeriod = resolveBufferPeriod(raw.buffer_period as RawBufferPeriod | undefined, DEFAULT_BUFFER_PERIOD);
  const workingDir = (raw.working_dir as string | undefined) || "sync-tasks";
  const [driverName, driverOptions] = Object.entries(obj(raw.driver))[0] ?? ["terraform", {}];
  const syslog = obj(raw.syslog);
  const config: CtsConfig = {
    // `ERROR` is accepted as a spelling of CTS's `ERR`.
    log_level: String(raw.log_level ?? "INFO").toUpperCase().replace(/^ERROR$/, "ERR") as CtsConfig["log_level"],
    log_json: (raw.log_json as boolean | undefined) ?? false,
    port,
    working_dir: workingDir,
    id: (raw.id as string | undefined) || `cts-${ctx.hostName}`,
    syslog: {
      enabled: bool(syslog.enabled, syslog.facility !== undefined || syslog.name !== undefined),
      facility: (syslog.facility as string | undefined) ?? "LOCAL0",
      name: (syslog.name as string | undefined) ?? "consul-terraform-sync",
    },
    buffer_period: bufferPeriod,
    tls,
    api,
    consul: consul(obj(raw.consul), ctx.env, `${tls.enabled ? "https" : "http"}://${checkHostOf(api.address)}:${port}`),
    vault: vault(obj(raw.vault), ctx.env, ctx.homeVaultToken),
    driver: { name: driverName, options: driverOptions as Json },
    terraform_providers: list(raw.terraform_provider).map((entry) => provider(entry, ctx.env)),
    tasks: ctx.buildTasks({ working_dir: workingDir, buffer_period: bufferPeriod, driver: driverName }),
    ...(raw.service !== undefined ? { service_blocks: raw.service as Json[] } : {}),
    plugins: list(raw.plugin).map(([name, body], index): PluginReferenceConfig => ({
      name,
      source: ctx.resolvePluginSource(String(body.source ?? ""), index),
      options: obj(body.options),
    })),
    ...(raw.high_availability !== undefined ? { high_availability: ha(obj(raw.high_availability)) } : {}),
    events_per_task: (raw.events_per_task as number | undefined) ?? 5,
    max_concurrent_runs: (raw.max_concurrent_runs as number | undefined) ?? 0,
    sources: [...ctx.sources],
  };
  return config;
}

/** `checkAddress`: where Consul's check reaches this API by default. */
function consul(raw: Json, env: Env, checkAddress: string): ConsulConfig {
  const auth = obj(raw.auth);
  const registration = obj(raw.service_registration);
  const check = obj(registration.default_check);
  return {
    address: (raw.address as string | undefined) ?? env.CONSUL_HTTP_ADDR ?? "localhost:8500",
    token: (raw.token as string | undefined) ?? env.CONSUL_TOKEN ?? env.CONSUL_HTTP_TOKEN ?? "",
    kv_path: (raw.kv_path as string | undefined) ?? "consul-terraform-sync/",
    kv_namespace: (raw.kv_namespace as string | undefined) ?? "",
    auth: {
      enabled: bool(auth.enabled, Boolean(auth.username) || Boolean(auth.password)),
      username: (auth.username as string | undefined) ?? "",
      password: (auth.password as string | undefined) ?? "",
    },
    tls: clientTls(obj(raw.tls), env, "CONSUL"),
    transport: transportConfig(obj(raw.transport)),
    service_registration: {
      enabled: (registration.enabled as boolean | undefined) ?? true,
      service_name: (registration.service_name as string | undefined) ?? "consul-terraform-sync",
      address: (registration.address as string | undefined) ?? "",
      namespace: (registration.namespace as string | undefined) ?? "",
      default_check: {
        enabled: (check.enabled as boolean | undefined) ?? true,
        address: (check.address as string | undefined) || checkAddress,
        interval: ms(check.interval, 10_000),
        timeout: ms(check.timeout, 2_000),
      },
    },
  };
}

/** `enabled` is computed from the file only, before env fallbacks fill the paths (as CTS does). */
function clientTls(raw: Json, env: Env, prefix: "CONSUL" | "VAULT", enabledDefault?: boolean): TlsFilesConfig {
  const fromFile = (key: string): string | undefined => raw[key] as string | undefined;
  const anySet = Object.keys(raw).some((key) => key !== "enabled" && raw[key] !== undefined);
  const skipVerify = prefix === "VAULT" ? boolText(env.VAULT_SKIP_VERIFY) : undefined;
  return {
    enabled: bool(raw.enabled, enabledDefault ?? anySet),
    verify: (raw.verify as boolean | undefined) ?? (skipVerify !== undefined ? !skipVerify : true),
    ca_cert: fromFile("ca_cert") ?? env[`${prefix}_CACERT`] ?? "",
    ca_path: fromFile("ca_path") ?? env[`${prefix}_CAPATH`] ?? "",
    cert: fromFile("cert") ?? env[`${prefix}_CLIENT_CERT`] ?? "",
    key: fromFile("key") ?? env[`${prefix}_CLIENT_KEY`] ?? "",
    server_name: fromFile("server_name") ?? env[`${prefix}_TLS_SERVER_NAME`] ?? "",
  };
}

function vault(raw: Json, env: Env, homeVaultToken: string | undefined): VaultConfig {
  const address = (raw.address as string | undefined) ?? env.VAULT_ADDR ?? "";
  const agentFile = (raw.vault_agent_token_file as string | undefined) ?? "";
  // CTS: the token, else VAULT_TOKEN, else (without an agent token file) the contents of ~/.vault-token.
  const configured = (raw.token as string | undefined) ?? env.VAULT_TOKEN ?? "";
  const token = configured === "" && agentFile === "" ? homeVaultToken ?? "" : configured;
  return {
    enabled: bool(raw.enabled, address !== ""),
    address,
    namespace: (raw.namespace as string | undefined) ?? env.VAULT_NAMESPACE ?? "",
    token,
    vault_agent_token_file: agentFile,
    renew_token: bool(raw.renew_token, boolText(env.VAULT_RENEW_TOKEN) ?? (token !== "" && agentFile === "")),
    unwrap_token: bool(raw.unwrap_token, boolText(env.VAULT_UNWRAP_TOKEN) ?? false),
    tls: clientTls(obj(raw.tls), env, "VAULT", true),
    transport: transportConfig(obj(raw.transport)),
  };
}

function apiTls(raw: Json): ApiTlsConfig {
  const anySet = ["cert", "key", "ca_cert", "ca_path", "verify_incoming"].some((key) => raw[key] !== undefined);
  return {
    enabled: bool(raw.enabled, anySet),
    cert: (raw.cert as string | undefined) ?? "",
    key: (raw.key as string | undefined) ?? "",
    verify_incoming: (raw.verify_incoming as boolean | undefined) ?? false,
    ca_cert: (raw.ca_cert as string | undefined) ?? "",
    ca_path: (raw.ca_path as string | undefined) ?? "",
  };
}

function provider([name, raw]: [string, Json], env: Env): ProviderConfig {
  const { alias, task_env, auto_commit, ...args } = resolveEnvTemplates(raw, env);
  return {
    id: typeof alias === "string" && alias !== "" ? `${name}.${alias}` : name,
    name,
    ...(typeof alias === "string" && alias !== "" ? { alias } : {}),
    arguments: args,
    task_env: { ...(task_env as Record<string, string> | undefined) },
    ...(typeof auto_commit === "boolean" ? { auto_commit } : {}),
  };
}

function ha(raw: Json): HighAvailabilityConfig {
  const cluster = obj(raw.cluster);
  const storage = obj(obj(cluster.storage).consul);
  return {
    cluster: {
      name: String(cluster.name ?? ""),
      // Any other value is reported by config-rules.ts with the allowed ones.
      mode: (cluster.mode as "leader" | "shared" | undefined) ?? "leader",
      storage: {
        parent_path: (storage.parent_path as string | undefined) ?? "consul-terraform-sync/",
        namespace: (storage.namespace as string | undefined) ?? "",
        session_ttl: ms(storage.session_ttl, 15_000),
      },
    },
    instance: { address: (obj(raw.instance).address as string | undefined) ?? "" },
  };
}

/** `[{label: body}, ...]` → `[label, body][]`. */
function list(value: unknown): [string, Json][] {
  return ((value as Json[] | undefined) ?? []).map((entry) => Object.entries(entry)[0] as [string, Json]);
}

function obj(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Json : {};
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

function boolText(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (/^(1|t|true)$/i.test(text)) return true;
  if (/^(0|f|false)$/i.test(text)) return false;
  return undefined;
}

function ms(value: unknown, fallback: number): number {
  return typeof value === "string" ? parseGoDuration(value) ?? fallback : fallback;
}
