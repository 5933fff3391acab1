/** @module A Logger that records lines, for asserting what the driver logged. */
import type { LogFields, Logger } from "../../core/plugin-api/mod.ts";

export interface LoggedLine {
  readonly level: string;
  readonly message: string;
  readonly fields?: LogFields;
}

export function captureLogger(lines: LoggedLine[] = [], name = "driver.terraform"): Logger & { lines: LoggedLine[] } {
  const at = (level: string) => (message: string, fields?: LogFields) => void lines.push({ level, message, fields });
  return {
    name, lines,
    trace: at("TRACE"), debug: at("DEBUG"), info: at("INFO"), warn: at("WARN"), error: at("ERROR"),
    child: (child: string) => captureLogger(lines, `${name}.${child}`),
  };
}
