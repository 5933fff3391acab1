/**
 * @module Compiles the RE2 patterns CTS users write (`regexp = "..."`) with re2js, the RE2 port config
 * validation also uses (core/config/re2-pattern.ts), so what loads is what matches. A plugin sees only
 * the contract, so it holds the engine itself rather than importing core's wrapper.
 */
import { RE2JS } from "re2js";
import { CtsError } from "../../../core/plugin-api/mod.ts";

/** A compiled pattern; `test` is unanchored like Go's `MatchString`. */
export interface Re2Pattern {
  readonly source: string;
  test(text: string): boolean;
}

/** Throws `CTS_ERR_CONFIG_INVALID` when RE2 rejects the pattern. Matching is unanchored, as Go's `MatchString`. */
export function compileRe2(pattern: string, field = "regexp"): Re2Pattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot compile ${field} "${pattern}": ${why}`);
  }
  return { source: pattern, test: (text) => compiled.test(text) };
}
