/** @module The log sink: one per process, hands out named loggers that share level and output. */
import type { LogFields, Logger, LogLevel } from "../plugin-api/mod.ts";
import { formatJsonLine, formatTextLine, type LogRecord } from "./format-log-line.ts";
import { isEnabled } from "./log-level.ts";

export interface LogSink {
  /** A logger named `name` (CTS names: `ctrl`, `driver.terraform`, ...). */
  logger(name: string, fields?: LogFields): Logger;
  setLevel(level: LogLevel): void;
}

export interface LogSinkOptions {
  level: LogLevel;
  json?: boolean;
  /** Receives each finished line (without newline). */
  write: (line: string) => void;
  /** For tests: a fixed clock. */
  now?: () => Date;
}

export function createLogSink(options: LogSinkOptions): LogSink {
  let threshold = options.level;
  const format = options.json ? formatJsonLine : formatTextLine;
  const now = options.now ?? (() => new Date());

  const emit = (record: Omit<LogRecord, "time">): void => {
    if (!isEnabled(record.level, threshold)) return;
    options.write(format({ ...record, time: now() }));
  };

  const make = (name: string, base: LogFields): Logger => {
    const at = (level: LogLevel) => (message: string, fields?: LogFields) =>
      emit({ level, name, message, fields: fields ? { ...base, ...fields } : base });
    return {
      name,
      trace: at("TRACE"),
      debug: at("DEBUG"),
      info: at("INFO"),
      warn: at("WARN"),
      error: at("ERROR"),
      child: (childName, fields) => make(childName && name ? `${name}.${childName}` : childName || name, { ...base, ...fields }),
      named: (other) => make(other, {}),
    };
  };

  return {
    logger: (name, fields) => make(name, fields ?? {}),
    setLevel: (level) => {
      threshold = level;
    },
  };
}
