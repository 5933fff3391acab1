/**
 * @module Boots a real kernel with the HTTP API served over real HTTP(S): the real engine,
 * store, leadership, condition plugins, consul-client, http-api (and optionally
 * service-registration) plus the recording driver.
 */
import type { CtsConfig, PluginDefinition, TaskManager } from "../../../../core/plugin-api/mod.ts";
import { taskManagerToken } from "../../../../core/plugin-api/mod.ts";
import { createTestKernel } from "../../../../core/plugin-testkit/src/create-test-kernel.ts";
import { testConfig, testConsulConfig } from "../../../../core/plugin-testkit/src/test-config.ts";
import type { Kernel } from "../../../../core/kernel/kernel.ts";
import type { BuiltinPlugin } from "../../../../core/kernel/builtin-plugins.ts";
import type { ServeHttpTls } from "../../../../core/runtime/serve-http.ts";
import { recordingDriverPlugin, type RecordingOptions } from "../../../../harness/driver-recording/mod.ts";

const PLUGINS = [
  "consul-client", "vault-client", "consul-inputs", "condition-schedule",
  "task-engine", "task-store-memory", "leadership-standalone",
  "http-api",
];

/** The testkit's config for API tests: DEBUG, port 0, no buffer period, recording driver. */
export function apiConfig(overrides: Partial<CtsConfig> = {}): CtsConfig {
  const { consul, ...fields } = overrides;
  const base = testConsulConfig();
  return testConfig({
    log_level: "DEBUG",
    port: 0,
    id: "cts-api-test",
    buffer_period: { enabled: false, min: 0, max: 0 },
    driver: { name: "recording", options: {} },
    ...fields,
    consul: consul ?? {
      // Nothing listens here unless a test passes a dev server: schedule tasks never ask Consul.
      address: "127.0.0.1:9",
      service_registration: { ...base.service_registration, enabled: false, service_name: "consul-terraform-sync" },
    },
  });
}

export interface ApiKernel {
  readonly kernel: Kernel;
  readonly tasks: TaskManager;
  /** Empty when not listening. */
  readonly url: string;
  readonly logs: string[];
  stop(): Promise<void>;
}

export async function startApiKernel(options: {
  config?: CtsConfig;
  tls?: ServeHttpTls;
  port?: number;
  recording?: RecordingOptions;
  extraPlugins?: string[];
  /** Plugin definitions to load besides the recording driver (test stand-ins). */
  plugins?: readonly PluginDefinition[];
  /** False: no HTTP server (in-process `app.request()` tests). @default true */
  listen?: boolean;
} = {}): Promise<ApiKernel> {
  const logs: string[] = [];
  const builtins: BuiltinPlugin[] = [...PLUGINS, ...(options.extraPlugins ?? [])].map((id) => ({
    id,
    load: () => import(`../../../../plugins/${id}/mod.ts`),
  }));
  const { kernel } = await createTestKernel({
    config: options.config ?? apiConfig(),
    builtins,
    plugins: [recordingDriverPlugin(options.recording ?? {}), ...(options.plugins ?? [])],
    logs,
    kernel: {
      httpListen: options.listen === false
        ? false
        : { hostname: "127.0.0.1", port: options.port ?? 0, ...(options.tls ? { tls: options.tls } : {}) },
    },
  });
  return {
    kernel,
    tasks: kernel.resolve(taskManagerToken),
    url: kernel.httpUrl ?? "",
    logs,
    stop: () => kernel.stop(),
  };
}
