/** @module The filter expression tree (go-bexpr v0.1.2 semantics). */

export type MatchOperator =
  | "==" | "!=" | "in" | "not in" | "matches" | "not matches" | "is empty" | "is not empty";

export interface MatchNode {
  readonly type: "match";
  /** Path segments: identifiers and bracketed map keys. */
  readonly selector: readonly string[];
  readonly operator: MatchOperator;
  /** Absent for is empty / is not empty. */
  readonly value?: string;
}

export type FilterNode =
  | MatchNode
  | { readonly type: "and" | "or"; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly type: "not"; readonly operand: FilterNode };

export function selectorText(selector: readonly string[]): string {
  return selector.join(".");
}
