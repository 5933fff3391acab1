/**
 * @module Encodes plain data as HCL native syntax, formatted exactly as `terraform fmt` would.
 *
 * Strings are escaped so that Terraform reads back the same characters: quotes, backslashes and
 * control characters are escaped, and template openers (`${`, `%{`) are doubled so they stay
 * literal. Other characters, astral ones included, are written as UTF-8. (HCL itself applies
 * Unicode NFC normalisation to every string it reads, escaped or not; nothing written in HCL can
 * avoid that, so non-NFC text such as `e` + U+0301 arrives as `é`.) Alignment of `=` follows hclwrite: consecutive single-line attributes form a chain
 * padded to the widest key (measured in grapheme clusters); a multi-line value breaks the chain.
 */
import { CtsError } from "../../../../core/plugin-api/mod.ts";

/** A value that can be written as HCL: what JSON can hold. */
export type HclValue =
  | string
  | number
  | boolean
  | null
  | readonly HclValue[]
  | { readonly [key: string]: HclValue };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Bare object keys that HCL would read as literals, not as names. */
const RESERVED_KEYS = new Set(["true", "false", "null"]);

/** True when `name` is an HCL identifier (usable as an attribute or variable name). */
export function isHclIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Characters that need escaping (or a check for pairing), and template openers. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]|[$%]\{/;

/** A double-quoted HCL string literal whose value is exactly `text`. */
export function quoteHclString(text: string): string {
  // Most values (ids, addresses, tags) need no escaping: skip the per-character loop.
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const ch = text[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if ((ch === "$" || ch === "%") && text[i + 1] === "{") out += ch + ch;
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) out += unicodeEscape(code);
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) throw loneSurrogate();
      out += ch + text[i + 1]!;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) throw loneSurrogate();
    else if (code === 0x2028 || code === 0x2029 || code === 0xfeff) out += unicodeEscape(code);
    else out += ch;
  }
  return out + '"';
}

function unicodeEscape(code: number): string {
  return "\\u" + code.toString(16).toUpperCase().padStart(4, "0");
}

function loneSurrogate(): CtsError {
  return new CtsError("CTS_ERR_DRIVER", "Cannot encode string as HCL: it contains an unpaired UTF-16 surrogate");
}

/** An object key: bare when it is a plain identifier, quoted otherwise. */
export function hclObjectKey(key: string): string {
  return isHclIdentifier(key) && !RESERVED_KEYS.has(key) ? key : quoteHclString(key);
}

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Display width as hclwrite counts it when aligning `=`: grapheme clusters. */
export function hclColumns(text: string): number {
  // Printable ASCII is one column per character; only other text needs grapheme segmentation.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/** An HCL number literal for a finite JS number. */
export function hclNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot encode number as HCL: ${value} is not finite`);
  }
  return Object.is(value, -0) ? "0" : String(value);
}

function isPlainObject(value: unknown): value is { readonly [key: string]: HclValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `value` is written on one line: scalars, empty collections, lists of such. */
function isSingleLine(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isSingleLine);
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return true;
}

const pads: string[] = [];
function pad(n: number): string {
  return (pads[n] ??= " ".repeat(n));
}

/** Attribute names repeat across thousands of instances (`id`, `name`, ...): encode each once. */
const keyCache = new Map<string, { readonly text: string; readonly columns: number }>();

function cachedObjectKey(key: string): { readonly text: string; readonly columns: number } {
  let encoded = keyCache.get(key);
  if (encoded === undefined) {
    const text = hclObjectKey(key);
    encoded = { text, columns: hclColumns(text) };
    if (keyCache.size > 4096) keyCache.clear();
    keyCache.set(key, encoded);
  }
  return encoded;
}

/**
 * Encodes `value`; `indent` is the indentation (in spaces) of the line the value starts on, used
 * for the lines of multi-line values. Empty collections and lists of scalars stay on one line.
 */
export function encodeHclValue(value: unknown, indent = 0): string {
  // Written into one array and joined once: large inputs (10 000 instances) stay linear.
  const out: string[] = [];
  writeValue(out, value, indent);
  return out.join("");
}

function writeValue(out: string[], value: unknown, indent: number): void {
  if (value === null || value === undefined) out.push("null");
  else if (typeof value === "string") out.push(quoteHclString(value));
  else if (typeof value === "number") out.push(hclNumber(value));
  else if (typeof value === "boolean") out.push(value ? "true" : "false");
  else if (typeof value === "bigint") out.push(value.toString());
  else if (Array.isArray(value)) writeList(out, value, indent);
  else if (isPlainObject(value)) writeObject(out, value, indent);
  else throw new CtsError("CTS_ERR_DRIVER", `Cannot encode value as HCL: unsupported type ${typeof value}`);
}

function writeList(out: string[], items: readonly unknown[], indent: number): void {
  if (items.every(isSingleLine)) {
    out.push("[");
    items.forEach((item, i) => {
      if (i > 0) out.push(", ");
      writeValue(out, item, indent + 2);
    });
    out.push("]");
    return;
  }
  out.push("[\n");
  for (const item of items) {
    out.push(pad(indent + 2));
    writeValue(out, item, indent + 2);
    out.push(",\n");
  }
  out.push(pad(indent), "]");
}

function writeObject(out: string[], object: { readonly [key: string]: unknown }, indent: number): void {
  const keys = Object.keys(object);
  if (keys.length === 0) {
    out.push("{}");
    return;
  }
  out.push("{\n");
  const inner = pad(indent + 2);
  // `=` is aligned over each run of single-line values; a multi-line value ends the run.
  let i = 0;
  while (i < keys.length) {
    if (!isSingleLine(object[keys[i]!])) {
      out.push(inner, cachedObjectKey(keys[i]!).text, " = ");
      writeValue(out, object[keys[i]!], indent + 2);
      out.push("\n");
      i++;
      continue;
    }
    let end = i;
    let width = 0;
    while (end < keys.length && isSingleLine(object[keys[end]!])) {
      width = Math.max(width, cachedObjectKey(keys[end]!).columns);
      end++;
    }
    for (; i < end; i++) {
      const key = cachedObjectKey(keys[i]!);
      out.push(inner, key.text, pad(width - key.columns), " = ");
      writeValue(out, object[keys[i]!], indent + 2);
      out.push("\n");
    }
  }
  out.push(pad(indent), "}");
}

/**
 * Lines `key = value` at `indent`, with `=` aligned across each run of single-line values as
 * `terraform fmt` does. `entries` hold already-encoded key and value text.
 */
export function alignAttributes(entries: readonly (readonly [string, string])[], indent: number): string[] {
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  let run: (readonly [string, string])[] = [];
  const flush = () => {
    const widths = run.map(([key]) => hclColumns(key));
    let width = 0;
    for (const w of widths) if (w > width) width = w;
    run.forEach(([key, value], i) => lines.push(`${pad}${key}${" ".repeat(width - widths[i]!)} = ${value}`));
    run = [];
  };
  for (const entry of entries) {
    if (entry[1].includes("\n")) {
      flush();
      lines.push(`${pad}${entry[0]} = ${entry[1]}`);
    } else run.push(entry);
  }
  flush();
  return lines;
}
