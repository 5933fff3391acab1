/**
 * @module The kernel's SecretMasker: the secrets the daemon knows and their escaped spellings,
 * replaced longest first so that a secret containing another is hidden whole. Every log line, event
 * and answer passes through `mask`, so it is one pass of one regular expression (an alternation of
 * literals, which V8 matches about a hundred times faster than one `includes` per spelling).
 */
import { MASKED_SECRET, type SecretMasker } from "../plugin-api/mod.ts";

/** Below this a value is too likely to be ordinary text to be hidden everywhere. */
const MIN_SECRET_LENGTH = 4;

export class SecretList implements SecretMasker {
  readonly #sources = new Map<string, string>();
  /** Every spelling to hide, longest first; rebuilt when a secret is added. */
  #spellings: readonly string[] = [];
  /** The spellings as one alternation, longest first; undefined while there are none. */
  #pattern: RegExp | undefined;

  get size(): number {
    return this.#sources.size;
  }

  add(value: string, source: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.#sources.has(value)) return;
    this.#sources.set(value, source);
    const all = new Set(this.#spellings);
    for (const spelling of spellingsOf(value)) all.add(spelling);
    this.#spellings = [...all].sort((a, b) => b.length - a.length);
    this.#pattern = new RegExp(this.#spellings.map(escapeRegExp).join("|"), "g");
  }

  mask(text: string): string {
    return this.#pattern === undefined ? text : text.replace(this.#pattern, () => MASKED_SECRET);
  }

  maskValue<T>(value: T): T {
    if (this.#spellings.length === 0) return value;
    return this.#maskAny(value) as T;
  }

  #maskAny(value: unknown): unknown {
    if (typeof value === "string") return this.mask(value);
    if (Array.isArray(value)) return value.map((item) => this.#maskAny(item));
    if (value === null || typeof value !== "object") return value;
    if (value instanceof Date) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.mask(key), this.#maskAny(item)]));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The value itself, as a JSON string body, and as the shell quotes it (`'it'\''s'`, `"a\"b"`). */
function spellingsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const singleQuoted = value.replaceAll("'", `'\\''`);
  const doubleQuoted = value.replace(/(["\\$`])/g, "\\$1");
  return [...new Set([value, json, singleQuoted, doubleQuoted])].filter((spelling) => spelling.length >= MIN_SECRET_LENGTH);
}
