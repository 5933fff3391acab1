/**
 * @module Compiles the RE2 patterns CTS users write (`regexp = "..."`) with re2js, a port of RE2's
 * engine; the blocks' `validate` hooks check patterns with it too, so what loads is what matches.
 */
import { RE2JS } from "re2js";
import { CtsError } from "../../../core/plugin-api/mod.ts";

/** A compiled pattern; `test` is unanchored like Go's `MatchString`. */
export interface Re2Pattern {
  readonly source: string;
  test(text: string): boolean;
}

/** RE2's reason for rejecting `pattern`, worded as Go's `regexp.Compile` (e.g. "error parsing regexp: ..."), or undefined. */
export function re2SyntaxError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Throws `CTS_ERR_CONFIG_INVALID` when RE2 rejects the pattern. Matching is unanchored, as Go's `MatchString`. */
export function compileRe2(pattern: string, field = "regexp"): Re2Pattern {
  const why = re2SyntaxError(pattern);
  if (why !== undefined) throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot compile ${field} "${pattern}": ${why}`);
  const compiled = RE2JS.compile(pattern);
  return { source: pattern, test: (text) => compiled.test(text) };
}
