/**
 * @module The config fields cts-runtime accepts and does not act on, each with why: the ones CTS
 * itself reads and ignores (said at WARN, so nobody believes they work), and CTS Enterprise's licence
 * (said at INFO: nothing here needs one). Every other schema field is acted on or refused; the test
 * test/core/config/field-effects.test.ts holds the whole table, and README.md lists these.
 */
import type { ConfigIssue } from "./config-error.ts";

export interface IneffectiveField {
  /** Dotted path in the config as written (blocks by name, no labels). */
  readonly path: string;
  readonly level: "INFO" | "WARN";
  readonly why: string;
}

const NO_LICENCE = "cts-runtime needs no licence: every feature of CTS Enterprise runs without one";

export const INEFFECTIVE_FIELDS: readonly IneffectiveField[] = [
  {
    path: "client_type", level: "WARN",
    why: "CTS takes the client type from the -client-type flag only and ignores this field; use start -client-type=development",
  },
  { path: "consul.kv_namespace", level: "WARN", why: "CTS reads it and never uses it" },
  { path: "service.description", level: "WARN", why: "CTS reads it and never uses it" },
  { path: "license_path", level: "INFO", why: NO_LICENCE },
  { path: "license.path", level: "INFO", why: NO_LICENCE },
  { path: "license.auto_retrieval.enabled", level: "INFO", why: NO_LICENCE },
];

export interface IneffectiveNotes {
  readonly warnings: ConfigIssue[];
  readonly notices: ConfigIssue[];
}

/** One note per ineffective field set in the merged config, naming the file that set it. */
export function ineffectiveFieldNotes(raw: Readonly<Record<string, unknown>>, fileOf: (path: string) => string | undefined): IneffectiveNotes {
  const notes: IneffectiveNotes = { warnings: [], notices: [] };
  for (const field of INEFFECTIVE_FIELDS) {
    for (const path of pathsSetting(raw, field.path.split("."), "")) {
      const note = { file: fileOf(path) ?? "", path, message: `accepted without effect: ${field.why}` };
      (field.level === "WARN" ? notes.warnings : notes.notices).push(note);
    }
  }
  return notes;
}

/** Where `keys` is set under `value`, as CTS-style paths (`service[1].description` in a list of blocks). */
function pathsSetting(value: unknown, keys: readonly string[], at: string): string[] {
  if (keys.length === 0) return value === undefined ? [] : [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsSetting(item, keys, `${at}[${index}]`));
  if (typeof value !== "object" || value === null) return [];
  const [key, ...rest] = keys as [string, ...string[]];
  return pathsSetting((value as Record<string, unknown>)[key], rest, at ? `${at}.${key}` : key);
}
