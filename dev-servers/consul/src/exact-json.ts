/**
 * @module JSON that keeps uint64 digits exact (Consul `Flags` can exceed 2^53, e.g. the Go lock flag
 * 3304740253564472344) and case-insensitive field lookup on request bodies (Go decodes keys that way).
 */

/** A uint64 kept as its decimal digits; serialized as a bare JSON number. */
export class Uint64 {
  readonly digits: string;
  constructor(digits: string) {
    this.digits = digits;
  }
  toJSON(): string {
    return `\u0000u64:${this.digits}\u0000`;
  }
}

export const ZERO_U64: Uint64 = new Uint64("0");

const MAX_U64 = (1n << 64n) - 1n;

/** Parses a query-string/body number as uint64; undefined when invalid (Go's strconv.ParseUint). */
export function parseUint64(text: string): Uint64 | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value > MAX_U64 ? undefined : new Uint64(value.toString());
}

const MARKER = /"\\u0000u64:(\d+)\\u0000"/g;

/** JSON.stringify, with Uint64 values written as exact numbers. */
export function stringifyExact(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\u0000u64:") ? text.replace(MARKER, "$1") : text;
}

/**
 * JSON.parse, except integer literals longer than 15 digits become strings so no digit is lost.
 * A small scanner skips string literals so their contents are never touched.
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\"") {
      let j = i + 1;
      while (j < text.length && text[j] !== "\"") j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if ((ch >= "0" && ch <= "9") || ch === "-") {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
      const literal = text.slice(i, j);
      out += /^-?\d{16,}$/.test(literal) ? `"${literal}"` : literal;
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out);
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/_/g, "");
}

/** A field of a decoded request object, matched like Go does: case-insensitive (and snake_case). */
export function field(object: unknown, name: string): unknown {
  if (typeof object !== "object" || object === null || Array.isArray(object)) return undefined;
  const record = object as Record<string, unknown>;
  if (name in record) return record[name];
  const wanted = normalizeKey(name);
  for (const key of Object.keys(record)) {
    if (normalizeKey(key) === wanted) return record[key];
  }
  return undefined;
}

/** Whether the field is present at all (even as null): Consul treats a present `Checks` key specially. */
export function hasField(object: unknown, name: string): boolean {
  if (typeof object !== "object" || object === null) return false;
  const wanted = normalizeKey(name);
  return Object.keys(object).some((key) => normalizeKey(key) === wanted);
}

export function stringField(object: unknown, name: string): string | undefined {
  const value = field(object, name);
  return typeof value === "string" ? value : undefined;
}

export function numberField(object: unknown, name: string): number | undefined {
  const value = field(object, name);
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

export function stringMapField(object: unknown, name: string): Record<string, string> {
  const value = field(object, name);
  const out: Record<string, string> = {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string") out[key] = item;
    }
  }
  return out;
}

export function stringListField(object: unknown, name: string): string[] {
  const value = field(object, name);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
