/** @module A complete, valid CtsConfig (and task) with CTS's defaults, for booting a kernel in tests. */
import type { ConsulConfig, CtsConfig, RunOptions, TaskConfig } from "@cts-runtime/plugin-api";

/** Any top-level field replaces the default; `consul` fields are merged into the default block. */
export interface TestConfigOverrides extends Partial<Omit<CtsConfig, "consul">> {
  /** Shorthand for `consul: { address }` (wins over it). */
  readonly consulAddress?: string;
  readonly consul?: Partial<ConsulConfig>;
}

/** The `consul {}` block with CTS's defaults (address 127.0.0.1:8500), `overrides` merged in. */
export function testConsulConfig(overrides: Partial<ConsulConfig> = {}): ConsulConfig {
  return {
    address: "127.0.0.1:8500",
    token: "",
    kv_path: "consul-terraform-sync/",
    kv_namespace: "",
    auth: { enabled: false, username: "", password: "" },
    tls: { enabled: false, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" },
    transport: {},
    service_registration: {
      enabled: true,
      service_name: "Consul-Terraform-Sync",
      address: "",
      namespace: "",
      default_check: { enabled: true, address: "" },
    },
    ...overrides,
  };
}

export function testConfig(overrides: TestConfigOverrides = {}): CtsConfig {
  const { consulAddress, consul, ...fields } = overrides;
  return {
    log_level: "INFO",
    log_json: false,
    port: 8558,
    working_dir: "sync-tasks",
    id: "cts-test",
    syslog: { enabled: false, facility: "LOCAL0", name: "consul-terraform-sync" },
    buffer_period: { enabled: true, min: 5_000, max: 20_000 },
    tls: { enabled: false, cert: "", key: "", verify_incoming: false, ca_cert: "", ca_path: "" },
    consul: testConsulConfig({ ...consul, ...(consulAddress !== undefined ? { address: consulAddress } : {}) }),
    driver: { name: "terraform", options: {} },
    terraform_providers: [],
    tasks: [],
    plugins: [],
    events_per_task: 5,
    max_concurrent_runs: 0,
    sources: [],
    ...fields,
  };
}

/** A task as core/config hands it over: services condition on "web", no buffer period of its own. */
export function testTask(name: string, overrides: Partial<TaskConfig> = {}): TaskConfig {
  return {
    name,
    description: "",
    enabled: true,
    providers: [],
    module: "./module",
    version: "",
    variables: {},
    variable_files: [],
    working_dir: `sync-tasks/${name}`,
    buffer_period: { enabled: false, min: 0, max: 0 },
    buffer_period_configured: false,
    condition: {
      type: "services", names: ["web"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {},
      use_as_module_input: true,
    },
    module_input: [],
    driver: "terraform",
    ...overrides,
  };
}

export const daemonRunOptions: RunOptions = Object.freeze({ mode: "daemon", inspectTasks: [], resetStorage: false });
