/**
 * @module Boots a real kernel for engine tests: the real consul-client, condition and
 * module-input plugins, the task engine, the memory store, standalone leadership and the
 * recording driver, against a Consul address (the embedded server, maybe behind a proxy).
 */
import type {
  CtsConfig, LogLevel, PluginDefinition, RunOptions, TaskConfig, TaskManager,
} from "../../core/plugin-api/mod.ts";
import { queryWatcherToken, taskManagerToken } from "../../core/plugin-api/mod.ts";
import { createTestKernel } from "../../core/plugin-testkit/src/create-test-kernel.ts";
import { eventually } from "../../core/plugin-testkit/src/eventually.ts";
import { testConfig, testTask } from "../../core/plugin-testkit/src/test-config.ts";
import type { Kernel } from "../../core/kernel/kernel.ts";
import type { BuiltinPlugin } from "../../core/kernel/builtin-plugins.ts";
import type { SharedQueryWatcher } from "../../plugins/task-engine/src/query-watcher.ts";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { clearRecordingLog, recordingDriverPlugin, type RecordingOptions } from "../driver-recording/mod.ts";
import { startConsulDevServer } from "../consul-dev-server.ts";

const ENGINE_PLUGINS = [
  "consul-client", "vault-client", "consul-inputs", "condition-schedule",
  "task-engine", "task-store-memory", "leadership-standalone",
];

export const builtins: BuiltinPlugin[] = ENGINE_PLUGINS.map((id) => ({ id, load: () => import(`../../plugins/${id}/mod.ts`) }));

export function servicesTask(name: string, services: string[], overrides: Partial<TaskConfig> = {}): TaskConfig {
  const base = testTask(name);
  return testTask(name, { condition: { ...base.condition, names: services }, driver: "recording", ...overrides });
}

/** The testkit's config for engine tests: DEBUG, port 0, no buffer period, no kv_path, recording driver. */
export function engineConfig(consulAddress: string, tasks: TaskConfig[], overrides: Partial<CtsConfig> = {}): CtsConfig {
  const { consul, ...fields } = overrides;
  return testConfig({
    log_level: "DEBUG",
    port: 0,
    buffer_period: { enabled: false, min: 0, max: 0 },
    driver: { name: "recording", options: {} },
    tasks,
    ...fields,
    consul: consul ?? {
      address: consulAddress,
      kv_path: "",
      service_registration: {
        enabled: false, service_name: "cts", address: "", namespace: "", default_check: { enabled: false, address: "" },
      },
    },
  });
}

export interface Harness {
  readonly kernel: Kernel;
  readonly manager: TaskManager;
  readonly watcher: SharedQueryWatcher;
  readonly logs: string[];
  /** Exit requests the engine made (first one wins in the real CLI). */
  readonly exits: { code: number; reason: string }[];
  /** Resolves with the first exit request. */
  readonly exited: Promise<{ code: number; reason: string }>;
  stop(): Promise<void>;
}

export async function startEngine(options: {
  config: CtsConfig;
  mode?: RunOptions["mode"];
  inspectTasks?: string[];
  recording?: RecordingOptions;
  /** Replace built-ins by id (e.g. a controllable leadership or a shared store). */
  replace?: Readonly<Record<string, PluginDefinition>>;
}): Promise<Harness> {
  const replaced = options.replace ?? {};
  const logs: string[] = [];
  const exits: { code: number; reason: string }[] = [];
  let resolveExit!: (exit: { code: number; reason: string }) => void;
  const exited = new Promise<{ code: number; reason: string }>((resolve) => (resolveExit = resolve));
  const { kernel } = await createTestKernel({
    config: options.config,
    runOptions: { mode: options.mode ?? "daemon", inspectTasks: options.inspectTasks ?? [], resetStorage: false },
    logLevel: logLevel(options.config.log_level),
    logs,
    builtins: builtins.filter((builtin) => !(builtin.id in replaced)),
    plugins: [recordingDriverPlugin({ instance_id: options.config.id, ...options.recording }), ...Object.values(replaced)],
    kernel: {
      shutdown: {
        requestExit(code, reason) {
          exits.push({ code, reason });
          resolveExit({ code, reason });
        },
      },
      httpListen: false,
    },
  });
  return {
    kernel,
    manager: kernel.resolve(taskManagerToken),
    watcher: kernel.resolve(queryWatcherToken) as SharedQueryWatcher,
    logs,
    exits,
    exited,
    stop: () => kernel.stop(),
  };
}

function logLevel(level: CtsConfig["log_level"]): LogLevel {
  return level === "ERR" ? "ERROR" : level;
}

/** Polls `check` until it returns a truthy value (bounded; events, not timing, are asserted). */
export function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  return eventually(check, what, timeoutMs, 20);
}

/** Registers one instance of `service` through the agent API. */
export async function registerInstance(url: string, service: string, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({ ID: id, Name: service, Address: "10.0.0.1", Port: 8080, ...extra }),
  });
  if (!response.ok) throw new Error(`register ${id}: ${response.status} ${await response.text()}`);
}

export async function deregisterInstance(url: string, id: string): Promise<void> {
  const response = await fetch(`${url}/v1/agent/service/deregister/${encodeURIComponent(id)}`, { method: "PUT" });
  if (!response.ok) throw new Error(`deregister ${id}: ${response.status}`);
}

/** One embedded Consul for a test file, and the engine the current test started (stopped after it). */
export interface EngineSuite {
  readonly server: Awaited<ReturnType<typeof startConsulDevServer>>;
  harness: Harness | undefined;
}

/**
 * Registers the hooks engine test files share: the embedded Consul started before the file and
 * stopped after it, a clean recording log before each test, and `suite.harness` stopped after each.
 */
export function engineSuite(): EngineSuite {
  let server: EngineSuite["server"] | undefined;
  const suite = {
    get server() {
      if (!server) throw new Error("the embedded Consul starts in beforeAll");
      return server;
    },
    harness: undefined as Harness | undefined,
  };
  beforeAll(async () => {
    server = await startConsulDevServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(() => clearRecordingLog());
  afterEach(async () => {
    await suite.harness?.stop();
    suite.harness = undefined;
  });
  return suite;
}
