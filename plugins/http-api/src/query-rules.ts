/**
 * @module CTS's query parameter rules: each parameter at most once, only known parameters,
 * and only known values (compared lower-cased, as CTS does for `status` and `run`).
 */
import { HttpError } from "./api-errors.ts";

export interface QueryRule {
  /** Allowed values (lower-case); the parsed value is lower-cased before comparing. */
  readonly values: readonly string[];
}

/**
 * Reads the query of `url` against `rules`. Unknown parameters are rejected too, so that a typo
 * such as `?rnu=now` cannot silently create a task without running it.
 */
export function parseQuery(url: string, rules: Readonly<Record<string, QueryRule>>): Record<string, string> {
  const params = new URL(url).searchParams;
  const seen: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    const rule = rules[name];
    if (!rule) {
      const allowed = Object.keys(rules);
      throw new HttpError(
        400,
        allowed.length === 0
          ? `unsupported query parameter '${name}': this endpoint takes no query parameters`
          : `unsupported query parameter '${name}': allowed parameters are ${allowed.map((a) => `'${a}'`).join(", ")}`,
      );
    }
    const values = params.getAll(name);
    if (values.length > 1) {
      throw new HttpError(400, `query parameter '${name}' may be given only once, got ${values.length} values`);
    }
    const value = values[0]!.toLowerCase();
    if (!rule.values.includes(value)) {
      throw new HttpError(
        400,
        `unsupported value '${values[0]}' for query parameter '${name}': use one of ${rule.values.join(", ")}`,
      );
    }
    seen[name] = value;
  }
  return seen;
}

export const runRule: QueryRule = { values: ["now", "inspect"] };
export const includeRule: QueryRule = { values: ["events"] };
export const statusRule: QueryRule = { values: ["successful", "errored", "critical", "unknown"] };
