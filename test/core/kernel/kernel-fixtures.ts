/** @module Small builders for kernel tests: a config, run options, a log sink that keeps its lines. */
import type { CtsConfig, PluginReferenceConfig, RunOptions } from "../../../core/plugin-api/mod.ts";
import { createLogSink, type LogSink } from "../../../core/logging/log-sink.ts";

/** A config with only what the kernel reads filled in; plugins under test read nothing else. */
export function testConfig(overrides: { plugins?: PluginReferenceConfig[]; sources?: string[]; working_dir?: string } = {}): CtsConfig {
  return {
    log_level: "INFO",
    log_json: false,
    port: 0,
    working_dir: overrides.working_dir ?? "sync-tasks",
    id: "cts-test",
    syslog: { enabled: false, facility: "local0", name: "cts" },
    buffer_period: { enabled: false, min: 0, max: 0 },
    tls: { enabled: false, cert: "", key: "", verify_incoming: false, ca_cert: "", ca_path: "" },
    consul: {} as CtsConfig["consul"],
    driver: { name: "terraform", options: {} },
    terraform_providers: [],
    tasks: [],
    plugins: overrides.plugins ?? [],
    events_per_task: 5,
    max_concurrent_runs: 0,
    sources: overrides.sources ?? [],
  };
}

export const daemonRun: RunOptions = { mode: "daemon", inspectTasks: [], resetStorage: false };

export function recordingLogSink(): LogSink & { readonly lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogSink({ level: "DEBUG", write: (line) => lines.push(line) }), { lines });
}
