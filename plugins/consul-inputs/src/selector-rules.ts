/**
 * @module The rules of the services, catalog-services and consul-kv blocks that their JSON Schemas
 * cannot say, as the factories' `validate` hooks: CTS's one-of `names`/`regexp`, and `regexp` in RE2
 * syntax (CTS compiles it with Go's regexp package; the reason is RE2's own words). The kernel runs
 * them on the decoded block before any other hook sees it, so this is the one place they are checked.
 */
import { type BlockProblem, cutText } from "../../../core/plugin-api/mod.ts";
import type { ServicesSelector } from "./input-options.ts";
import { re2SyntaxError } from "./re2-regexp.ts";

/** `regexp`, when set, must be RE2. */
export function regexpProblems(options: { readonly regexp?: string }): BlockProblem[] {
  if (options.regexp === undefined) return [];
  const why = re2SyntaxError(options.regexp);
  return why === undefined ? [] : [{ path: "regexp", message: `is not a valid RE2 regular expression: ${cutText(why, 200)}` }];
}

/** A services selector (condition or module input) names its services or matches them: exactly one of the two. */
export function servicesSelectorProblems(options: ServicesSelector): BlockProblem[] {
  const hasNames = options.names !== undefined && options.names.length > 0;
  const hasRegexp = options.regexp !== undefined;
  if (hasNames && hasRegexp) return [{ path: "regexp", message: "regexp and names are both set: configure exactly one of them" }];
  if (!hasNames && !hasRegexp) return [{ path: "", message: "needs either names or regexp" }];
  return regexpProblems(options);
}
