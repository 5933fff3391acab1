/**
 * @module A recursive-descent parser for Consul's filter grammar (go-bexpr v0.1.2): `or` < `and` < `not`,
 * parentheses, `==`/`!=`, `[not] contains|matches|in`, `is [not] empty`; bare-word, number and string values.
 * Newer go-bexpr syntax (`any`/`all`, `is nil`, JSON pointers) is refused as Consul servers refuse it.
 */
import type { FilterNode, MatchNode, MatchOperator } from "./ast.ts";

export class FilterSyntaxError extends Error {}

const IDENT = /[a-zA-Z][a-zA-Z0-9_]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/y;
const SPACE = /[ \t\r\n]*/y;
const VALUE_EXPECTED = `"-", "0", "\\"", "\`", [ \\t\\r\\n], [1-9] or [a-zA-Z]`;

class Parser {
  readonly #src: string;
  #pos = 0;
  /** Whether the last value read was a bare word (for the end-of-input error text). */
  #endedWithWord = false;
  matchCount = 0;

  constructor(src: string) {
    this.#src = src;
  }

  fail(expected: string): never {
    this.#throw(`no match found, expected: ${expected}`);
  }

  /** pigeon's wording for errors raised inside a grammar rule. */
  failRule(rule: string, message: string): never {
    this.#throw(`rule "${rule}": ${message}`);
  }

  #throw(message: string): never {
    const before = this.#src.slice(0, this.#pos);
    const line = before.split("\n").length;
    const col = this.#pos - before.lastIndexOf("\n");
    throw new FilterSyntaxError(`${line}:${col} (${this.#pos}): ${message}`);
  }

  #space(): boolean {
    SPACE.lastIndex = this.#pos;
    const match = SPACE.exec(this.#src)!;
    this.#pos += match[0].length;
    return match[0].length > 0;
  }

  #peekWord(): string | undefined {
    IDENT.lastIndex = this.#pos;
    return IDENT.exec(this.#src)?.[0];
  }

  /** Consumes `word` if it is the next whole word (followed by whitespace, "(" or the end). */
  #keyword(word: string): boolean {
    if (this.#peekWord() !== word) return false;
    const after = this.#src[this.#pos + word.length];
    if (after !== undefined && !/[ \t\r\n()]/.test(after)) return false;
    this.#pos += word.length;
    return true;
  }

  #eat(text: string): boolean {
    if (!this.#src.startsWith(text, this.#pos)) return false;
    this.#pos += text.length;
    return true;
  }

  parseInput(): FilterNode {
    this.#space();
    const node = this.#or();
    const end = this.#pos;
    this.#space();
    if (this.#pos < this.#src.length) {
      // After whitespace only a keyword may follow; right after a bare word the selector could go on.
      if (this.#pos > end) this.fail(`"and", "or", [ \\t\\r\\n] or EOF`);
      this.fail(this.#endedWithWord ? `".", "[", [ \\t\\r\\n], [a-zA-Z0-9_] or EOF` : `[ \\t\\r\\n] or EOF`);
    }
    return node;
  }

  #or(): FilterNode {
    const left = this.#and();
    const mark = this.#pos;
    if (this.#space() && this.#keyword("or")) {
      if (!this.#space()) this.fail("[ \\t\\r\\n]");
      return { type: "or", left, right: this.#or() };
    }
    this.#pos = mark;
    return left;
  }

  #and(): FilterNode {
    const left = this.#not();
    const mark = this.#pos;
    if (this.#space() && this.#keyword("and")) {
      if (!this.#space()) this.fail("[ \\t\\r\\n]");
      return { type: "and", left, right: this.#and() };
    }
    this.#pos = mark;
    return left;
  }

  #not(): FilterNode {
    const mark = this.#pos;
    // A lone trailing "not" is read as a selector named "not", as go-bexpr's grammar does.
    if (this.#src.length > this.#pos + 3 && this.#keyword("not")) {
      this.#space();
      if (this.#peekWord() !== "in" && this.#peekWord() !== "contains" && this.#peekWord() !== "matches") {
        return { type: "not", operand: this.#not() };
      }
      this.#pos = mark;
    }
    return this.#paren();
  }

  #paren(): FilterNode {
    if (this.#eat("(")) {
      this.#space();
      const inner = this.#or();
      this.#space();
      if (!this.#eat(")")) this.failRule("grouping", "Unmatched parentheses");
      return inner;
    }
    return this.#match();
  }

  #selector(): string[] | undefined {
    const first = this.#peekWord();
    if (!first) return undefined;
    this.#pos += first.length;
    const path = [first];
    for (;;) {
      if (this.#src[this.#pos] === "." ) {
        this.#pos++;
        const next = this.#peekWord();
        if (!next) this.fail("[a-zA-Z]");
        this.#pos += next.length;
        path.push(next);
      } else if (this.#src[this.#pos] === "[") {
        this.#pos++;
        this.#space();
        const key = this.#string();
        if (key === undefined) this.failRule("index", "Invalid index");
        this.#space();
        if (!this.#eat("]")) this.failRule("index", "Unclosed index expression");
        path.push(key);
      } else {
        return path;
      }
    }
  }

  #string(): string | undefined {
    const quote = this.#src[this.#pos];
    if (quote === "`") {
      const end = this.#src.indexOf("`", this.#pos + 1);
      if (end < 0) {
        this.#pos = this.#src.length;
        this.failRule("string", "Unterminated string literal");
      }
      const value = this.#src.slice(this.#pos + 1, end);
      this.#pos = end + 1;
      return value;
    }
    if (quote !== "\"") return undefined;
    let end = this.#pos + 1;
    while (end < this.#src.length && this.#src[end] !== "\"") end += this.#src[end] === "\\" ? 2 : 1;
    if (end >= this.#src.length) {
      this.#pos = this.#src.length;
      this.failRule("string", "Unterminated string literal");
    }
    const literal = this.#src.slice(this.#pos, end + 1);
    this.#pos = end + 1;
    try {
      return JSON.parse(literal) as string;
    } catch {
      return literal.slice(1, -1);
    }
  }

  /** A Value: string, number, or a bare selector-shaped word used verbatim. */
  #value(): string {
    this.#endedWithWord = false;
    const text = this.#string();
    if (text !== undefined) return text;
    NUMBER.lastIndex = this.#pos;
    const number = NUMBER.exec(this.#src)?.[0];
    if (number !== undefined) {
      this.#pos += number.length;
      const after = this.#src[this.#pos];
      if (after !== undefined && !/[ \t\r\n)]/.test(after)) this.failRule("number", "Invalid number literal");
      return number;
    }
    const start = this.#pos;
    if (!this.#selector()) this.fail(VALUE_EXPECTED);
    this.#endedWithWord = true;
    return this.#src.slice(start, this.#pos);
  }

  #match(): MatchNode {
    this.matchCount++;
    const start = this.#pos;
    const selector = this.#string() === undefined ? this.#selector() : undefined;
    if (!selector) {
      this.#pos = start;
      return this.#valueIn();
    }
    const afterSelector = this.#pos;
    this.#space();
    if (this.#eat("==") || this.#eat("!=")) {
      const operator = this.#src.slice(this.#pos - 2, this.#pos) as MatchOperator;
      this.#space();
      return { type: "match", selector, operator, value: this.#value() };
    }
    if (this.#pos === afterSelector) this.fail(`"!=", ".", "==", "[", [ \\t\\r\\n] or [a-zA-Z0-9_]`);
    if (this.#keyword("is")) {
      this.#space();
      const negated = this.#keyword("not");
      if (negated) this.#space();
      if (!this.#keyword("empty") && !this.#eatEnd("empty")) this.fail("\"empty\" or \"not\"");
      return { type: "match", selector, operator: negated ? "is not empty" : "is empty" };
    }
    const negated = this.#keyword("not");
    if (negated) this.#space();
    for (const word of ["contains", "matches"] as const) {
      if (this.#keyword(word)) {
        if (!this.#space()) this.fail("[ \\t\\r\\n]");
        const value = this.#value();
        const operator = word === "contains" ? (negated ? "not in" : "in") : (negated ? "not matches" : "matches");
        return { type: "match", selector, operator, value };
      }
    }
    if (!negated && this.#keyword("in")) {
      // `word in Selector`: the first word was a bare value.
      this.#pos = start;
      return this.#valueIn();
    }
    if (negated && this.#keyword("in")) {
      this.#pos = start;
      return this.#valueIn();
    }
    return this.fail(`"!=", "==", "contains", "in", "is", "matches", "not" or [ \\t\\r\\n]`);
  }

  #eatEnd(word: string): boolean {
    if (this.#src.slice(this.#pos) === word) {
      this.#pos += word.length;
      return true;
    }
    return false;
  }

  #valueIn(): MatchNode {
    const value = this.#value();
    if (!this.#space()) this.fail("[ \\t\\r\\n]");
    const negated = this.#keyword("not");
    if (negated) this.#space();
    if (!this.#keyword("in")) this.fail(`"in" or "not"`);
    this.#space();
    const selector = this.#selector();
    if (!selector) this.failRule("match", "Invalid selector");
    this.#endedWithWord = true;
    return { type: "match", selector, operator: negated ? "not in" : "in", value };
  }
}

export const MAX_MATCH_EXPRESSIONS = 32;

/** Parses a filter; throws FilterSyntaxError with a go-bexpr-like message. */
export function parseFilter(source: string): FilterNode {
  const parser = new Parser(source);
  const node = parser.parseInput();
  if (parser.matchCount > MAX_MATCH_EXPRESSIONS) {
    throw new FilterSyntaxError(
      `Number of match expressions (${parser.matchCount}) exceeds the limit (${MAX_MATCH_EXPRESSIONS})`,
    );
  }
  return node;
}
