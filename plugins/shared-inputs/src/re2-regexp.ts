/**
 * @module Compiles the RE2 patterns CTS users write (`regexp = "..."`) into JavaScript RegExps.
 *
 * The two dialects agree on everyday patterns; this bridges the RE2-only spellings users meet
 * in practice: leading inline flags `(?i)`, `(?P<name>...)` groups, `\A`/`\z` anchors and
 * ASCII classes such as `[[:alpha:]]`. Like Go's `MatchString`, matching is unanchored.
 */
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z", alpha: "A-Za-z", ascii: "\\x00-\\x7F", blank: "\\t ", cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9", graph: "!-~", lower: "a-z", print: " -~", punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ", upper: "A-Z", word: "0-9A-Za-z_", xdigit: "0-9A-Fa-f",
};

/** Throws `CTS_ERR_CONFIG_INVALID` when the pattern is not a valid expression. */
export function compileRe2(pattern: string, field = "regexp"): RegExp {
  let source = pattern;
  let flags = "";
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (leading) {
    for (const flag of leading[1]!) {
      if (flag === "i" || flag === "m" || flag === "s") flags += flags.includes(flag) ? "" : flag;
      else throw invalid(pattern, field, `unsupported flag "${flag}"`);
    }
    source = source.slice(leading[0].length);
  }
  source = source
    .replace(/\(\?P</g, "(?<")
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negated: string, name: string) => {
      const range = POSIX_CLASSES[name];
      if (range === undefined) return whole;
      // Inside a bracket expression a negated POSIX class has no JS spelling; keep the common case.
      return negated ? whole : range;
    })
    .replace(/(^|[^\\])((?:\\\\)*)\\A/g, "$1$2(?<![\\s\\S])")
    .replace(/(^|[^\\])((?:\\\\)*)\\z/g, "$1$2$(?![\\s\\S])");
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw invalid(pattern, field, errorMessage(error));
  }
}

function invalid(pattern: string, field: string, why: string): CtsError {
  return new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot compile ${field} "${pattern}": ${why}`);
}
