/** @module A Logger that records every line (level, name, message, fields) for assertions. */
import type { LogFields, Logger, LogLevel } from "../../core/plugin-api/mod.ts";

export interface LogLine {
  readonly level: LogLevel;
  readonly name: string;
  readonly message: string;
  readonly fields: LogFields;
}

export interface CaptureLogger extends Logger {
  readonly lines: LogLine[];
  /** Every line rendered as text, to search for leaked secrets. */
  text(): string;
}

export function createCaptureLogger(name = "consul-client", lines: LogLine[] = []): CaptureLogger {
  const log = (level: LogLevel) => (message: string, fields: LogFields = {}) => {
    lines.push({ level, name, message, fields });
  };
  return {
    name,
    lines,
    trace: log("TRACE"),
    debug: log("DEBUG"),
    info: log("INFO"),
    warn: log("WARN"),
    error: log("ERROR"),
    child: (child: string) => createCaptureLogger(`${name}.${child}`, lines),
    text: () => lines.map((line) => `${line.level} ${line.name}: ${line.message} ${JSON.stringify(line.fields)}`).join("\n"),
  };
}
