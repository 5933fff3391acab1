/**
 * @module bexpr's `matches` patterns: Consul is a Go program, so patterns are Go RE2 syntax, matched
 * by re2js (a port of RE2's engine) rather than by JavaScript's RegExp, which rejects RE2 spellings
 * such as `(?i)` or `\pL` and accepts what RE2 refuses (lookaround, backreferences). The conditions'
 * `regexp` fields use the same engine (plugins/consul-inputs/src/re2-regexp.ts).
 */
import { RE2JS } from "re2js";

/** A compiled pattern; `test` is unanchored like Go's `MatchString`. */
export interface Re2Pattern {
  readonly source: string;
  test(text: string): boolean;
}

/** Compiles `pattern`; throws the engine's error, worded as Go's `regexp.Compile` words it. */
export function compileRe2Pattern(pattern: string): Re2Pattern {
  const compiled = RE2JS.compile(pattern);
  return { source: pattern, test: (text) => compiled.test(text) };
}
