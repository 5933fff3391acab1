/** @module The logger service: CTS's `timestamp [LEVEL]  name: message: key=value` lines, or JSON. */

export type LogLevel = "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR";

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  /** Dotted logger name as CTS prints it, e.g. `ctrl`, `driver.terraform`. */
  readonly name: string;
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger named `<this name>.<name>` with the same sink; an empty `name` keeps this name (fields only). */
  child(name: string, fields?: LogFields): Logger;
  /**
   * A logger of the same sink and level under another of CTS's component
   * names, for a plugin that plays several of them (the task engine writes CTS's `ctrl:` lines).
   */
  named?(name: string): Logger;
}
