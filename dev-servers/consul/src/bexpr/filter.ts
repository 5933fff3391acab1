/**
 * @module `?filter=` for one endpoint: parse, validate selectors/operators/values against the endpoint's
 * schema (go-bexpr v0.1.2 rules), then evaluate on the response rows. Any error is Consul's
 * HTTP 500 `Failed to create boolean expression evaluator: ...`.
 */
import { compileRe2Pattern, type Re2Pattern } from "./re2-pattern.ts";
import { serverError } from "../api-error.ts";
import { type FilterNode, type MatchNode, type MatchOperator, selectorText } from "./ast.ts";
import { parseFilter } from "./parse-filter.ts";

export type FieldType =
  | { readonly kind: "string" | "int" | "bool" | "float" }
  | { readonly kind: "slice"; readonly elem: FieldType }
  | { readonly kind: "map"; readonly value: FieldType }
  | { readonly kind: "struct"; readonly fields: Readonly<Record<string, FieldType>> };

export type FilterSchema = Extract<FieldType, { kind: "struct" }>;

/** go-bexpr's MatchOperator.String(), used in its error texts. */
const OPERATOR_NAMES: Readonly<Record<MatchOperator, string>> = {
  "==": "Equal", "!=": "Not Equal", "in": "In", "not in": "Not In", "matches": "Matches",
  "not matches": "Not Matches", "is empty": "Is Empty", "is not empty": "Is Not Empty",
};

const STRING_OPS: readonly MatchOperator[] = ["==", "!=", "in", "not in", "matches", "not matches"];
const SCALAR_OPS: readonly MatchOperator[] = ["==", "!="];
const COLLECTION_OPS: readonly MatchOperator[] = ["in", "not in", "is empty", "is not empty"];
const EMPTY_OPS: readonly MatchOperator[] = ["is empty", "is not empty"];

function operatorsFor(type: FieldType): readonly MatchOperator[] {
  switch (type.kind) {
    case "string": return STRING_OPS;
    case "int": case "bool": case "float": return SCALAR_OPS;
    case "map": return COLLECTION_OPS;
    case "slice": return type.elem.kind === "struct" ? EMPTY_OPS : COLLECTION_OPS;
    case "struct": return [];
  }
}

function fail(message: string): never {
  throw serverError(`Failed to create boolean expression evaluator: ${message}`);
}

/** Resolves the type a selector points at. */
function resolve(schema: FilterSchema, selector: readonly string[]): FieldType {
  let type: FieldType = schema;
  for (const segment of selector) {
    while (type.kind === "slice" && type.elem.kind === "struct") type = type.elem;
    if (type.kind === "struct" && segment in type.fields) type = type.fields[segment]!;
    else if (type.kind === "map") type = type.value;
    else fail(`Selector "${selectorText(selector)}" is not valid`);
  }
  return type;
}

function coerce(type: FieldType, node: MatchNode): void {
  const value = node.value ?? "";
  const fails = (why: string) =>
    fail(`Failed to coerce value "${value}" for selector "${selectorText(node.selector)}": ${why}`);
  if (node.operator === "in" || node.operator === "not in") return;
  if (type.kind === "int" && !/^[+-]?\d+$/.test(value)) fails(`strconv.ParseInt: parsing "${value}": invalid syntax`);
  if (type.kind === "float" && Number.isNaN(Number(value))) fails(`strconv.ParseFloat: parsing "${value}": invalid syntax`);
  if (type.kind === "bool" && !["1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"].includes(value)) {
    fails(`strconv.ParseBool: parsing "${value}": invalid syntax`);
  }
}

type Compiled = (row: unknown) => boolean;

function compileMatch(schema: FilterSchema, node: MatchNode): Compiled {
  const type = resolve(schema, node.selector);
  if (!operatorsFor(type).includes(node.operator)) {
    fail(`Invalid match operator "${OPERATOR_NAMES[node.operator]}" for selector "${selectorText(node.selector)}"`);
  }
  coerce(type, node);
  let regex: Re2Pattern | undefined;
  if (node.operator === "matches" || node.operator === "not matches") {
    try {
      // go-bexpr compiles with Go's regexp: RE2 syntax and RE2's error text.
      regex = compileRe2Pattern(node.value ?? "");
    } catch (error) {
      fail(`Failed to compile regular expression "${node.value}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const test = leafTest(type, node, regex);
  return (row) => walk(row, schema, node.selector, 0, node.operator, test);
}

/** Missing map key: ==, is not empty, in ⇒ false; everything else ⇒ true (go-bexpr's map case). */
const MISSING_TRUE = new Set<MatchOperator>(["!=", "not in", "is empty", "matches", "not matches"]);

function walk(
  value: unknown, type: FieldType, path: readonly string[], at: number, op: MatchOperator,
  test: (leaf: unknown) => boolean,
): boolean {
  if (type.kind === "slice" && type.elem.kind === "struct" && at < path.length) {
    // Slices of structs are "any": true when some element satisfies the rest of the path.
    const items = Array.isArray(value) ? value : [];
    return items.some((item) => walk(item, type.elem, path, at, op, test));
  }
  if (at === path.length) return test(value);
  const segment = path[at]!;
  if (type.kind === "struct") {
    const child = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    return walk(child, type.fields[segment]!, path, at + 1, op, test);
  }
  if (type.kind === "map") {
    const record = typeof value === "object" && value !== null ? value as Record<string, unknown> : {};
    if (!(segment in record)) return MISSING_TRUE.has(op);
    return walk(record[segment], type.value, path, at + 1, op, test);
  }
  return false;
}

function scalarText(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

function leafTest(type: FieldType, node: MatchNode, regex: Re2Pattern | undefined): (leaf: unknown) => boolean {
  const wanted = node.value ?? "";
  switch (node.operator) {
    case "==": case "!=": {
      const equal = (leaf: unknown) => type.kind === "bool"
        ? Boolean(leaf) === ["1", "t", "T", "TRUE", "true", "True"].includes(wanted)
        : type.kind === "int" || type.kind === "float" ? Number(leaf ?? 0) === Number(wanted) : scalarText(leaf) === wanted;
      return node.operator === "==" ? equal : (leaf) => !equal(leaf);
    }
    case "matches": return (leaf) => regex!.test(scalarText(leaf));
    case "not matches": return (leaf) => !regex!.test(scalarText(leaf));
    case "is empty": case "is not empty": {
      const empty = (leaf: unknown) => Array.isArray(leaf) ? leaf.length === 0
        : typeof leaf === "object" && leaf !== null ? Object.keys(leaf).length === 0 : true;
      return node.operator === "is empty" ? empty : (leaf) => !empty(leaf);
    }
    case "in": case "not in": {
      const contains = (leaf: unknown) => type.kind === "string" ? scalarText(leaf).includes(wanted)
        : Array.isArray(leaf) ? leaf.some((item) => scalarText(item) === wanted)
        : typeof leaf === "object" && leaf !== null ? wanted in leaf : false;
      return node.operator === "in" ? contains : (leaf) => !contains(leaf);
    }
  }
}

function compileNode(schema: FilterSchema, node: FilterNode): Compiled {
  switch (node.type) {
    case "match": return compileMatch(schema, node);
    case "not": {
      const operand = compileNode(schema, node.operand);
      return (row) => !operand(row);
    }
    case "and": case "or": {
      const left = compileNode(schema, node.left);
      const right = compileNode(schema, node.right);
      return node.type === "and" ? (row) => left(row) && right(row) : (row) => left(row) || right(row);
    }
  }
}

/** Compiles `source` for rows shaped like `schema`; throws Consul's 500 error on any problem. */
export function compileFilter(source: string, schema: FilterSchema): Compiled {
  let tree: FilterNode;
  try {
    tree = parseFilter(source);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return compileNode(schema, tree);
}
