/**
 * @module Renders one log record as CTS (hclog) prints it, or as one JSON object.
 *
 * Text: `2026-11-21T10:00:00.000Z [INFO]  ctrl: message: key=value key2="a b"`.
 * JSON: `{"@timestamp":…,"@level":"info","@module":"ctrl","@message":…,"key":…}` (hclog's JSON keys).
 */
import type { LogFields, LogLevel } from "../plugin-api/mod.ts";

export interface LogRecord {
  readonly time: Date;
  readonly level: LogLevel;
  readonly name: string;
  readonly message: string;
  readonly fields: LogFields;
}

/** Field names whose values never reach a log, whoever passes them. */
const SECRET_FIELD = /token|password|secret|private[_-]?key/i;

export function formatTextLine(record: LogRecord): string {
  const level = `[${record.level}]`.padEnd(7);
  const prefix = record.name ? `${record.name}: ` : "";
  let line = `${record.time.toISOString()} ${level} ${prefix}${record.message}`;
  const entries = Object.entries(record.fields).filter(([, value]) => value !== undefined);
  if (entries.length > 0) {
    line += ":";
    for (const [key, value] of entries) line += ` ${key}=${formatTextValue(key, value)}`;
  }
  return line;
}

export function formatJsonLine(record: LogRecord): string {
  const out: Record<string, unknown> = {
    "@timestamp": record.time.toISOString(),
    "@level": record.level.toLowerCase(),
    "@module": record.name,
    "@message": record.message,
  };
  for (const [key, value] of Object.entries(record.fields)) {
    if (value !== undefined) out[key] = safeValue(key, value);
  }
  return JSON.stringify(out, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
}

function safeValue(key: string, value: unknown): unknown {
  if (SECRET_FIELD.test(key) && value !== "" && value !== null) return "<redacted>";
  if (value instanceof Error) return value.message;
  return value;
}

function formatTextValue(key: string, value: unknown): string {
  const safe = safeValue(key, value);
  const text = typeof safe === "string"
    ? safe
    : typeof safe === "bigint"
    ? safe.toString()
    : typeof safe === "object" && safe !== null
    ? JSON.stringify(safe)
    : String(safe);
  // hclog quotes values that would otherwise be ambiguous to split on spaces.
  return /[\s"=]/.test(text) || text === "" ? JSON.stringify(text) : text;
}
