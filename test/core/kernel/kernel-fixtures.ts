/** @module Small builders for kernel tests: a config, run options, a log sink that keeps its lines. */
import { createLogSink, type LogSink } from "../../../core/logging/log-sink.ts";
import { daemonRunOptions } from "../../../core/plugin-testkit/src/test-config.ts";

export { testConfig } from "../../../core/plugin-testkit/src/test-config.ts";
export const daemonRun = daemonRunOptions;

export function recordingLogSink(): LogSink & { readonly lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogSink({ level: "DEBUG", write: (line) => lines.push(line) }), { lines });
}
