/**
 * @module The rules of the services, catalog-services and consul-kv blocks that their JSON Schemas
 * cannot say, as the factories' `validate` hooks: CTS's one-of `names`/`regexp`, and `regexp` in RE2
 * syntax (CTS compiles it with Go's regexp package; the reason is RE2's own words).
 */
import { type BlockProblem, cutText } from "../../../core/plugin-api/mod.ts";
import { re2SyntaxError } from "./re2-regexp.ts";

type Options = Readonly<Record<string, unknown>>;

/** `regexp`, when set, must be RE2. */
export function regexpProblems(options: Options): BlockProblem[] {
  if (typeof options.regexp !== "string") return [];
  const why = re2SyntaxError(options.regexp);
  return why === undefined ? [] : [{ path: "regexp", message: `is not a valid RE2 regular expression: ${cutText(why, 200)}` }];
}

/**
 * CTS's one-of rule of a services selector, the one place it is decided: "both" or "neither" when
 * the block does not select its services exactly one way (a null regexp is an unset one).
 */
export function selectorConflict(options: Options): "both" | "neither" | undefined {
  const names = options.names as readonly string[] | undefined;
  const hasNames = names !== undefined && names.length > 0;
  const hasRegexp = options.regexp !== undefined && options.regexp !== null;
  if (hasNames && hasRegexp) return "both";
  return hasNames || hasRegexp ? undefined : "neither";
}

/** A services selector (condition or module input) names its services or matches them, not both. */
export function servicesSelectorProblems(options: Options): BlockProblem[] {
  const conflict = selectorConflict(options);
  if (conflict === "both") return [{ path: "regexp", message: "regexp and names are both set: configure exactly one of them" }];
  if (conflict === "neither") return [{ path: "", message: "needs either names or regexp" }];
  return regexpProblems(options);
}
