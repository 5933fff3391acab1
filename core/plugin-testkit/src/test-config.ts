/** @module A complete, valid CtsConfig with CTS's defaults, for booting a kernel in tests. */
import type { CtsConfig, PluginReferenceConfig, RunOptions } from "../../plugin-api/mod.ts";

export interface TestConfigOverrides {
  readonly plugins?: readonly PluginReferenceConfig[];
  /** Config files it was "read from" (relative plugin paths resolve against the first one's folder). */
  readonly sources?: readonly string[];
  readonly working_dir?: string;
  readonly consulAddress?: string;
}

export function testConfig(overrides: TestConfigOverrides = {}): CtsConfig {
  const tls = { enabled: false, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" };
  return {
    log_level: "INFO",
    log_json: false,
    port: 8558,
    working_dir: overrides.working_dir ?? "sync-tasks",
    id: "cts-test",
    syslog: { enabled: false, facility: "local0", name: "consul-terraform-sync" },
    buffer_period: { enabled: true, min: 5_000, max: 20_000 },
    tls: { enabled: false, cert: "", key: "", verify_incoming: false, ca_cert: "", ca_path: "" },
    consul: {
      address: overrides.consulAddress ?? "127.0.0.1:8500",
      token: "",
      kv_path: "consul-terraform-sync/",
      kv_namespace: "",
      auth: { enabled: false, username: "", password: "" },
      tls,
      transport: {},
      service_registration: {
        enabled: true,
        service_name: "Consul-Terraform-Sync",
        address: "",
        namespace: "",
        default_check: { enabled: true, address: "" },
      },
    },
    driver: { name: "terraform", options: {} },
    terraform_providers: [],
    tasks: [],
    plugins: overrides.plugins ?? [],
    events_per_task: 5,
    max_concurrent_runs: 0,
    sources: overrides.sources ?? [],
  };
}

export const daemonRunOptions: RunOptions = Object.freeze({ mode: "daemon", inspectTasks: [], resetStorage: false });
