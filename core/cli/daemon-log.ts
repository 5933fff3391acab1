/**
 * @module Where a daemon's log goes: stderr (as CTS), plus the local syslog when `syslog { enabled }`
 * (every line, as CTS's writer sends it). Trouble with syslog is said on stderr only.
 */
import type { CtsConfig, SecretMasker } from "../plugin-api/mod.ts";
import { createLogSink, type LogSink } from "../logging/log-sink.ts";
import { parseLogLevel } from "../logging/log-level.ts";
import { logsToTerminal, writeLogLine } from "../runtime/process-io.ts";
import { startSyslogWriter } from "../runtime/syslog-writer.ts";

export interface DaemonLog {
  readonly sink: LogSink;
  /** Hands syslog what it still holds; the log keeps going to stderr. */
  close(): Promise<void>;
}

/** Every line is masked (`secrets`); ANSI colour is kept only for text lines to a terminal, never for syslog. */
export function createDaemonLog(config: CtsConfig, secrets: SecretMasker): DaemonLog {
  const level = parseLogLevel(config.log_level) ?? "INFO";
  if (!config.syslog.enabled) {
    const sink = createLogSink({ level, json: config.log_json, write: writeLogLine, secrets, keepColour: logsToTerminal() });
    return { sink, close: () => Promise.resolve() };
  }
  const stderrOnly = createLogSink({ level, json: config.log_json, write: writeLogLine, secrets });
  const syslog = startSyslogWriter({ facility: config.syslog.facility, name: config.syslog.name, logger: stderrOnly.logger("syslog") });
  const sink = createLogSink({
    level,
    json: config.log_json,
    secrets,
    write: (line) => {
      writeLogLine(line);
      syslog.write(line);
    },
  });
  return {
    sink: {
      logger: (name, fields) => sink.logger(name, fields),
      setLevel: (next) => {
        sink.setLevel(next);
        stderrOnly.setLevel(next);
      },
    },
    close: () => syslog.close(),
  };
}
