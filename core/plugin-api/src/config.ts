/**
 * @module The normalised, validated configuration every plugin reads.
 *
 * CTS's HCL/JSON files are parsed, merged, defaulted and validated by core/config into this
 * shape. Keys keep CTS's snake_case names so users recognise them; labelled HCL blocks
 * (`condition "services" {}`) become objects with a `type` field; durations become milliseconds.
 */

export interface BufferPeriodConfig {
  readonly enabled: boolean;
  /** Milliseconds. */
  readonly min: number;
  /** Milliseconds. */
  readonly max: number;
}

export interface TlsFilesConfig {
  readonly enabled: boolean;
  readonly verify: boolean;
  readonly ca_cert: string;
  readonly ca_path: string;
  readonly cert: string;
  readonly key: string;
  readonly server_name: string;
}

export interface ServiceRegistrationConfig {
  readonly enabled: boolean;
  readonly service_name: string;
  readonly address: string;
  readonly namespace: string;
  readonly default_check: {
    readonly enabled: boolean;
    readonly address: string;
    /** Beyond CTS (fixed there at 10 s / 2 s): milliseconds, default 10_000 / 2_000. With HA they bound crash failover. */
    readonly interval?: number;
    readonly timeout?: number;
  };
}

export interface ConsulConfig {
  /** `host:port` or a URL, as CTS accepts. */
  readonly address: string;
  /** Secret: redacted wherever config is shown. */
  readonly token: string;
  readonly kv_path: string;
  readonly kv_namespace: string;
  readonly auth: { readonly enabled: boolean; readonly username: string; readonly password: string };
  readonly tls: TlsFilesConfig;
  /** Durations in milliseconds (`dial_timeout`, ...), counts as numbers; see the config reference §1.4. */
  readonly transport: Readonly<Record<string, unknown>>;
  readonly service_registration: ServiceRegistrationConfig;
}

/** The `vault {}` block; used only to resolve `{{ with secret }}` in terraform_provider blocks. */
export interface VaultConfig {
  /** Defaults to true when `address` is set (after the `VAULT_ADDR` fallback). */
  readonly enabled: boolean;
  readonly address: string;
  readonly namespace: string;
  /** Secret: redacted wherever config is shown. */
  readonly token: string;
  readonly vault_agent_token_file: string;
  readonly renew_token: boolean;
  readonly unwrap_token: boolean;
  readonly tls: TlsFilesConfig;
  /** As `ConsulConfig.transport`; the loader always sets it. */
  readonly transport?: Readonly<Record<string, unknown>>;
}

export interface ApiTlsConfig {
  readonly enabled: boolean;
  readonly cert: string;
  readonly key: string;
  readonly verify_incoming: boolean;
  readonly ca_cert: string;
  readonly ca_path: string;
}

/**
 * Beyond CTS: the `api {}` block, the doors of the daemon's HTTP server (the API, `/ui/`, `/metrics`).
 * CTS has none of these settings; without the block the API behaves as CTS's, except that browsers
 * on other origins may not write (see `allowed_origins`).
 */
export interface ApiConfig {
  /** The address the server listens on; "" means every interface, as CTS (`:<port>`). */
  readonly address: string;
  /**
   * The bearer token every request needs (`Authorization: Bearer <token>`), `/v1/health` and the
   * status page's static files aside; "" means none. A secret: redacted wherever config is shown. It
   * may be `{{ env "X" }}` (resolved at load) or `{{ with secret "p" }}...{{ end }}` (read at start).
   */
  readonly token: string;
  /**
   * Origins (`https://ops.example.com`) whose pages may call the API from a browser, writes
   * included; `"*"` allows every origin (CTS's behaviour). The API's own origin is always allowed.
   */
  readonly allowed_origins: readonly string[];
  /** Milliseconds a request (headers and body) has to arrive whole. @default 15000 (CTS's read timeout) */
  readonly request_timeout: number;
  /** How many `GET /v1/events` streams may be open at once; more get 503. @default 100 */
  readonly max_event_streams: number;
}

/** A `driver "<name>" {}` block's body, untyped (a driver types its own: `DriverFactory<O>`). */
export type DriverOptions = Readonly<Record<string, unknown>>;

/**
 * One `driver "<name>" {}` block. The name selects a driver registered by a plugin. The body is as
 * written in what the config loader gives; the kernel checks it against the driver's schema and
 * hands the checked body (`O`) to the driver.
 */
export interface DriverConfig<O extends object = DriverOptions> {
  readonly name: string;
  /** The block's body (terraform: version, path, log, persist_log, backend, required_providers). */
  readonly options: O;
}

/** One `terraform_provider "<name>" {}` block. */
export interface ProviderConfig {
  /** `name` or `name.alias`. */
  readonly id: string;
  readonly name: string;
  readonly alias?: string;
  /** Provider arguments, without `alias`, `task_env` and `auto_commit`. */
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly task_env: Readonly<Record<string, string>>;
  readonly auto_commit?: boolean;
  /**
   * Set by the engine when `arguments` hold values read from Vault: a driver must pass them to its
   * tool through the environment (or another channel that is not a file), never write them down.
   */
  readonly sensitive?: boolean;
}

/**
 * A task's `condition "<type>" {}` block: `type` is the label, every other field is the body as its
 * owner's schema reads it (weakly decoded, deprecated names renamed, the owner's defaults applied;
 * the kernel completes it once the owner is registered). Only the plugin that registers the type
 * knows its fields, so the contract does not spell any: a plugin reads its own block's fields.
 */
export interface ConditionConfig {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A task's `module_input "<type>" {}` block, shaped as `ConditionConfig`. */
export interface ModuleInputConfig {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** @deprecated The same open shape as `ConditionConfig`, which now covers every condition type. */
export type OtherConditionConfig = ConditionConfig;

/**
 * Beyond CTS: a task's `drift_detection {}` as written (every field optional; the task engine's
 * `drift_detection` option gives the rest). A block without `enabled` enables the checks.
 */
export interface DriftDetectionConfig {
  readonly enabled?: boolean;
  /** Go duration between checks (at least 1s). */
  readonly interval?: string;
  /** Instead of `interval`: a cron expression (croner syntax, 5 or 6 fields). */
  readonly cron?: string;
  /** Apply at once when drift is found. @default false (report only) */
  readonly auto_correct?: boolean;
}

export interface TaskConfig {
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly providers: readonly string[];
  readonly module: string;
  readonly version: string;
  /** Each value is an HCL expression string, as in CTS (`"\"a\""` for the string a). */
  readonly variables: Readonly<Record<string, string>>;
  readonly variable_files: readonly string[];
  /** Absolute or relative to the daemon's CWD; defaults to `<working_dir>/<name>`. */
  readonly working_dir: string;
  readonly buffer_period: BufferPeriodConfig;
  /** True when the task (not the global block) configured a buffer period (CTS shows it only then). */
  readonly buffer_period_configured: boolean;
  readonly condition: ConditionConfig;
  readonly module_input: readonly ModuleInputConfig[];
  /** The driver name this task runs on (the configured `driver` block, default `terraform`). */
  readonly driver: string;
  /** CTS's deprecated `services` field as written (reported by the status API and run events). */
  readonly services?: readonly string[];
  /** Beyond CTS: `drift_detection {}` as written, when the task has one. */
  readonly drift_detection?: DriftDetectionConfig;
}

export interface PluginReferenceConfig {
  /** The block label, used as the plugin's name in logs. */
  readonly name: string;
  /**
   * npm package name, or a path. core/config resolves a relative path (`./x`, `../x`) against the
   * directory of the config file that named it, so the kernel always sees an absolute path here.
   */
  readonly source: string;
  readonly options: Readonly<Record<string, unknown>>;
}

export interface HighAvailabilityConfig {
  readonly cluster: {
    readonly name: string;
    /**
     * Beyond CTS: "leader" (default, CTS) = one leader runs every task; "shared" = every instance runs
     * a share of the tasks, each task owned through its own Consul lock.
     */
    readonly mode?: "leader" | "shared";
    readonly storage: {
      readonly parent_path: string;
      readonly namespace: string;
      /** Milliseconds. */
      readonly session_ttl: number;
    };
  };
  readonly instance: { readonly address: string };
}

export interface CtsConfig {
  readonly log_level: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERR";
  /** Beyond CTS: `json = true` prints one JSON object per log line. */
  readonly log_json: boolean;
  readonly port: number;
  readonly working_dir: string;
  readonly id: string;
  readonly syslog: { readonly enabled: boolean; readonly facility: string; readonly name: string };
  readonly buffer_period: BufferPeriodConfig;
  readonly tls: ApiTlsConfig;
  /** Beyond CTS. Absent only in configs built by hand (tests); the loader always sets it. */
  readonly api?: ApiConfig;
  readonly consul: ConsulConfig;
  /** Absent only in configs built by hand (tests); the loader always sets it. */
  readonly vault?: VaultConfig;
  readonly driver: DriverConfig;
  readonly terraform_providers: readonly ProviderConfig[];
  readonly tasks: readonly TaskConfig[];
  /**
   * CTS's deprecated top-level `service` blocks as written, when any: tasks' deprecated `services`
   * lists name them by id (the owner of `services` reads them: `ConditionFactory.fromDeprecatedServices`).
   */
  readonly service_blocks?: readonly Readonly<Record<string, unknown>>[];
  readonly plugins: readonly PluginReferenceConfig[];
  readonly high_availability?: HighAvailabilityConfig;
  /** Beyond CTS: how many events are kept per task. @default 5 */
  readonly events_per_task: number;
  /** Beyond CTS: how many tasks may run at once. @default 0 (no limit) */
  readonly max_concurrent_runs: number;
  /** Files the config was read from, in order. */
  readonly sources: readonly string[];
}

/** How this process was started. */
export interface RunOptions {
  readonly mode: "daemon" | "once" | "inspect" | "validate";
  /** Only these tasks are inspected (`-inspect-task`); empty means all. */
  readonly inspectTasks: readonly string[];
  readonly resetStorage: boolean;
  /** CTS's hidden `start -client-type` (`development`: drivers stand in for their tool, as CTS's e2e uses). */
  readonly clientType?: string;
}
