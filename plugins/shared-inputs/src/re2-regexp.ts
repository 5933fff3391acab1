/**
 * @module Compiles the RE2 patterns CTS users write (`regexp = "..."`) with the same engine config
 * validation uses (core/config/re2-pattern.ts), so what loads is what matches.
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";
import { compileRe2Pattern, re2SyntaxError, type Re2Pattern } from "../../../core/config/re2-pattern.ts";

/** Throws `CTS_ERR_CONFIG_INVALID` when RE2 rejects the pattern. Matching is unanchored, as Go's `MatchString`. */
export function compileRe2(pattern: string, field = "regexp"): Re2Pattern {
  const why = re2SyntaxError(pattern);
  if (why !== undefined) throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot compile ${field} "${pattern}": ${why}`);
  return compileRe2Pattern(pattern);
}
