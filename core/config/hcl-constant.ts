/**
 * @module Evaluates the expressions of a variable file as CTS does: HCL with an empty evaluation
 * context, so literals, operators, conditionals, indexes and string templates work, while any
 * variable reference or function call is an error (as is an ill-typed operation like `true + 1`).
 * Input is @cdktf/hcl2json's output, where an expression stays a `${...}` template string.
 * for-expressions, splats and template directives (`%{ if }`) are refused rather than evaluated.
 */
type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** Thrown with HCL's reason; the caller names the file and the variable. */
export class HclEvaluationError extends Error {}

const fail = (message: string): never => {
  throw new HclEvaluationError(message);
};

/** hcl2json's value with every `${...}` evaluated and `$${` / `%%{` unescaped. */
export function evaluateHclValue(value: unknown): Value {
  if (typeof value === "string") return evaluateTemplate(value);
  if (Array.isArray(value)) return value.map(evaluateHclValue);
  if (value !== null && typeof value === "object") {
    const out: { [key: string]: Value } = {};
    for (const [key, item] of Object.entries(value)) out[String(asString(evaluateTemplate(key)))] = evaluateHclValue(item);
    return out;
  }
  return value as Value;
}

/** A template: literal text with `${expr}` parts; a lone `${expr}` keeps the expression's type. */
function evaluateTemplate(text: string): Value {
  const parts: Value[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i) || text.startsWith("%%{", i)) {
      literal += text.slice(i + 1, i + 3);
      i += 3;
    } else if (text.startsWith("%{", i)) {
      fail("template directives (%{ ... }) are not supported in variable files");
    } else if (text.startsWith("${", i)) {
      if (literal !== "") parts.push(literal);
      literal = "";
      const parser = new Parser(text, i + 2);
      parts.push(parser.expression());
      parser.expect("}");
      i = parser.at;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal !== "" || parts.length === 0) parts.push(literal);
  if (parts.length === 1 && text.startsWith("${")) return parts[0]!;
  return parts.map(asString).join("");
}

const BINARY: readonly (readonly string[])[] = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];

class Parser {
  readonly text: string;
  at: number;
  constructor(text: string, at: number) {
    this.text = text;
    this.at = at;
  }

  #space(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  #peek(token: string): boolean {
    this.#space();
    return this.text.startsWith(token, this.at);
  }

  #take(token: string): boolean {
    if (!this.#peek(token)) return false;
    // `<` must not swallow `<=`, `!` not `!=`, `=` is never an operator alone.
    const next = this.text[this.at + token.length];
    if ((token === "<" || token === ">" || token === "!") && next === "=") return false;
    this.at += token.length;
    return true;
  }

  expect(token: string): void {
    if (!this.#take(token)) fail(`expected "${token}" at "${this.text.slice(this.at, this.at + 20)}"`);
  }

  expression(): Value {
    const condition = this.#binary(0);
    if (!this.#take("?")) return condition;
    const yes = this.expression();
    this.expect(":");
    const no = this.expression();
    return asBool(condition, "condition") ? yes : no;
  }

  #binary(level: number): Value {
    if (level === BINARY.length) return this.#unary();
    let left = this.#binary(level + 1);
    for (;;) {
      const op = BINARY[level]!.find((candidate) => this.#take(candidate));
      if (op === undefined) return left;
      left = apply(op, left, this.#binary(level + 1));
    }
  }

  #unary(): Value {
    if (this.#take("-")) return -asNumber(this.#unary(), "operand");
    if (this.#take("!")) return !asBool(this.#unary(), "operand");
    let value = this.#primary();
    for (;;) {
      if (this.#take("[")) {
        if (this.#take("*")) fail("splat expressions are not supported in variable files");
        value = index(value, this.expression());
        this.expect("]");
      } else if (this.#peek(".") && !this.#peek("..")) {
        this.at++;
        value = index(value, this.#name());
      } else return value;
    }
  }

  #name(): string {
    this.#space();
    const match = /^[A-Za-z_][A-Za-z0-9_-]*|^\d+/.exec(this.text.slice(this.at));
    if (match === null) fail(`expected a name at "${this.text.slice(this.at, this.at + 20)}"`);
    this.at += match![0].length;
    return match![0];
  }

  #primary(): Value {
    this.#space();
    const rest = this.text.slice(this.at);
    const number = /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    if (this.#take("(")) {
      const value = this.expression();
      this.expect(")");
      return value;
    }
    if (this.#take("\"")) return this.#string();
    if (this.#take("[")) return this.#tuple();
    if (this.#take("{")) return this.#object();
    if (rest.startsWith("<<")) fail("heredocs inside expressions are not supported in variable files");
    const name = this.#name();
    if (name === "true" || name === "false") return name === "true";
    if (name === "null") return null;
    if (name === "for") fail("for expressions are not supported in variable files");
    if (this.#peek("(")) fail(`Function calls not allowed: ${name}() cannot be used in a variable file`);
    return fail(`Variables not allowed: ${name} cannot be referenced in a variable file`);
  }

  /** A quoted string's source up to its closing quote, escapes decoded, then evaluated as a template. */
  #string(): Value {
    let source = "";
    for (;;) {
      const ch = this.text[this.at];
      if (ch === undefined) fail("unterminated string");
      this.at++;
      if (ch === "\"") break;
      if (ch === "\\") {
        const escape = this.text[this.at++];
        const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\"": "\"", "\\": "\\" };
        if (escape !== undefined && escape in simple) source += simple[escape];
        else if (escape === "u" || escape === "U") {
          const digits = this.text.slice(this.at, this.at + (escape === "u" ? 4 : 8));
          if (!/^[0-9a-fA-F]+$/.test(digits)) fail("invalid unicode escape");
          source += String.fromCodePoint(parseInt(digits, 16));
          this.at += digits.length;
        } else fail(`invalid escape sequence \\${escape}`);
      } else if ((ch === "$" || ch === "%") && this.text[this.at] === ch && this.text[this.at + 1] === "{") {
        source += `${ch}${ch}{`; // an escaped opener, unescaped by evaluateTemplate
        this.at += 2;
      } else if (ch === "%" && this.text[this.at] === "{") {
        fail("template directives (%{ ... }) are not supported in variable files");
      } else if (ch === "$" && this.text[this.at] === "{") {
        // A nested interpolation: keep its source for evaluateTemplate, up to the matching brace.
        const inner = new Parser(this.text, this.at + 1);
        inner.expression();
        inner.expect("}");
        source += this.text.slice(this.at - 1, inner.at);
        this.at = inner.at;
      } else source += ch;
    }
    return evaluateTemplate(source);
  }

  #tuple(): Value[] {
    const items: Value[] = [];
    while (!this.#take("]")) {
      items.push(this.expression());
      if (!this.#take(",") && !this.#peek("]")) fail(`expected "," or "]"`);
    }
    return items;
  }

  #object(): { [key: string]: Value } {
    const out: { [key: string]: Value } = {};
    while (!this.#take("}")) {
      this.#space();
      const bare = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(this.text.slice(this.at));
      let key: Value;
      if (bare && !["true", "false", "null"].includes(bare[0]) && /^\s*[=:]/.test(this.text.slice(this.at + bare[0].length))) {
        this.at += bare[0].length;
        key = bare[0];
      } else key = this.#binary(0);
      if (!this.#take("=") && !this.#take(":")) fail(`expected "=" after an object key`);
      out[asString(key)] = this.expression();
      this.#take(",");
    }
    return out;
  }
}

function apply(op: string, left: Value, right: Value): Value {
  switch (op) {
    case "||": return asBool(left, "left operand") || asBool(right, "right operand");
    case "&&": return asBool(left, "left operand") && asBool(right, "right operand");
    case "==": return JSON.stringify(left) === JSON.stringify(right);
    case "!=": return JSON.stringify(left) !== JSON.stringify(right);
  }
  const a = asNumber(left, "left operand");
  const b = asNumber(right, "right operand");
  switch (op) {
    case "<": return a < b;
    case "<=": return a <= b;
    case ">": return a > b;
    case ">=": return a >= b;
    case "+": return a + b;
    case "-": return a - b;
    case "*": return a * b;
    case "/": return b === 0 ? fail("Operation failed: can't divide by zero") : a / b;
    default: return b === 0 ? fail("Operation failed: can't compute modulo of zero") : a % b;
  }
}

function index(collection: Value, key: Value): Value {
  if (Array.isArray(collection)) {
    const at = asNumber(key, "index");
    return collection[at] ?? fail(`Invalid index: the collection has no element ${at}`);
  }
  if (collection !== null && typeof collection === "object") {
    const name = asString(key);
    return name in collection ? collection[name]! : fail(`Invalid index: the object has no attribute "${name}"`);
  }
  return fail("Invalid index: only lists and objects can be indexed");
}

/** HCL converts strings to numbers and bools; never bools to numbers. */
function asNumber(value: Value, what: string): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim())) return Number(value);
  return fail(`Unsuitable value for ${what}: a number is required`);
}

function asBool(value: Value, what: string): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return fail(`Unsuitable value for ${what}: a bool is required`);
}

function asString(value: Value): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return fail(value === null
    ? "Invalid template interpolation value: the expression result is null"
    : "Invalid template interpolation value: a list or object cannot be used in a string");
}
