/**
 * @module The `syslog {}` block's rule: the facility is one CTS's syslog writer knows (go-syslog's
 * names, any case). CTS fails at start-up on another; here it is a config error naming the field.
 */
import type { CtsConfig } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";

export const SYSLOG_FACILITIES: readonly string[] = [
  "KERN", "USER", "MAIL", "DAEMON", "AUTH", "SYSLOG", "LPR", "NEWS", "UUCP", "CRON", "AUTHPRIV", "FTP",
  "LOCAL0", "LOCAL1", "LOCAL2", "LOCAL3", "LOCAL4", "LOCAL5", "LOCAL6", "LOCAL7",
];

export function syslogIssues(config: CtsConfig, fileOf: (path: string) => string | undefined): ConfigIssue[] {
  const facility = config.syslog.facility;
  if (SYSLOG_FACILITIES.includes(facility.toUpperCase())) return [];
  return [{
    file: fileOf("syslog.facility") ?? "",
    path: "syslog.facility",
    message: `must be a syslog facility (${SYSLOG_FACILITIES.join(", ")}; any case), got ${JSON.stringify(facility)}`,
  }];
}
