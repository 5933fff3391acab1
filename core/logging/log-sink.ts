/**
 * @module The log sink: one per process, hands out named loggers that share level and output.
 * Every record is cleaned before it is formatted: known secrets masked in its message and fields
 * (whoever logged them), and ANSI escape codes removed unless the lines go to a terminal.
 */
import stripAnsi from "strip-ansi";
import type { LogFields, Logger, LogLevel, SecretMasker } from "../plugin-api/mod.ts";
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
  /** The daemon's secrets: masked in every line. @default none */
  secrets?: Pick<SecretMasker, "mask">;
  /** Keep ANSI colour codes (text lines to a terminal); JSON lines never keep them. @default false */
  keepColour?: boolean;
}

export function createLogSink(options: LogSinkOptions): LogSink {
  let threshold = options.level;
  const format = options.json ? formatJsonLine : formatTextLine;
  const now = options.now ?? (() => new Date());
  const keepColour = options.keepColour === true && options.json !== true;
  const secrets = options.secrets;
  const cleanText = (text: string): string => {
    const plain = keepColour ? text : stripAnsi(text);
    return secrets ? secrets.mask(plain) : plain;
  };

  const emit = (record: Omit<LogRecord, "time">): void => {
    if (!isEnabled(record.level, threshold)) return;
    const fields = cleanValue(record.fields, cleanText) as LogFields;
    options.write(format({ ...record, message: cleanText(record.message), fields, time: now() }));
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

/** Strings cleaned (keys too), errors as their cleaned message, lists and plain objects walked; the rest as is. */
function cleanValue(value: unknown, clean: (text: string) => string): unknown {
  if (typeof value === "string") return clean(value);
  if (value instanceof Error) return clean(value.message);
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, clean));
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [clean(key), cleanValue(item, clean)]));
}
