/**
 * @module CTS's weak decoding, applied to a shaped config file before schema validation. CTS decodes
 * with mapstructure (v1.5) `WeaklyTypedInput` everywhere, plus consul's `HookWeakDecodeFromSlice` in
 * HCL files and, in any format, inside condition and module_input blocks. This module converts, by
 * the type the schema expects, exactly what those accept and leaves everything else to the schema:
 * - a one-element list where one value is expected becomes that value (the slice hook);
 * - to a string: booleans become "1"/"0", numbers their decimal text;
 * - to a boolean: numbers are `!= 0`; strings as Go's strconv.ParseBool ("" is false);
 * - to an integer: booleans are 1/0; strings as strconv.ParseInt base 0 ("" is 0); numbers truncate;
 * - to a list: an empty object is an empty list; another single value becomes a one-element list;
 * - to a map: an empty list is an empty map; a list of objects (HCL's block syntax for a map,
 *   `meta { a = "b" }`, which hcl2json gives as `[{a: "b"}]`) is their merge.
 * Fields typed by a union and durations' formats are left as written, and so are the values of a
 * provider's `task_env`: CTS reads that block as written and refuses a value that is not a string. Config files are decoded by
 * core's schemas (`weakDecode`); a block a plugin owns is decoded by the owner's own schema when the
 * kernel checks it (`weakDecodeBlock`), so core need not know its fields.
 */
type Json = Record<string, unknown>;
type Schema = Json;

export interface WeakDecodeOptions {
  /** `$id` → schema document, to follow `$ref`s across the config schemas. */
  readonly documents: ReadonlyMap<string, Schema>;
  /** Whether one-element lists unwrap everywhere (HCL files) or only in condition/module_input blocks (JSON). */
  readonly unwrapLists: boolean;
  /** Told of numbers an integer field holds that are not whole (CTS truncates them: worth a warning) or not safe integers. */
  readonly numbers?: IntegerNotes;
}

/** What decoding noticed about numbers written for integer fields; `pointer` is the field's JSON pointer. */
export interface IntegerNotes {
  /** `written` is not whole: CTS (mapstructure) truncates it to `kept`, and so does this decoding. */
  truncated(pointer: string, written: number, kept: number): void;
  /** `written` is beyond ±2^53: CTS would read a meaningless number (Go's float to int64 conversion). */
  outOfRange(pointer: string, written: number): void;
}

/** A map shaped (HCL block syntax merged) with its values left as written. */
const RAW_VALUES_MAP: Schema = { type: "object", additionalProperties: {} };
/** Maps whose values CTS does not decode weakly (config/provider.go checks them as written). */
const RAW_VALUE_KEYS = new Set(["task_env"]);
/** Keys of a task whose bodies CTS decodes with the slice hook in every format. */
const HOOKED_TASK_KEYS = new Set(["condition", "module_input", "source_input"]);
const TRUE_TEXTS = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE_TEXTS = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** `value` decoded against `schema` (a document of `options.documents`); never throws. */
export function weakDecode(value: unknown, schema: Schema, options: WeakDecodeOptions): unknown {
  return decode(value, { schema, doc: schema }, options.unwrapLists, options, "");
}

/**
 * A plugin-owned block (condition, module_input) decoded by its owner's self-contained JSON Schema
 * (local `#/...` refs only). CTS decodes these blocks with the slice hook in every file format, so
 * one-element lists always unwrap.
 */
export function weakDecodeBlock(value: unknown, schema: Schema): unknown {
  return decode(value, { schema, doc: schema }, true, { documents: new Map(), unwrapLists: true }, "");
}

interface Located {
  readonly schema: Schema;
  /** The document `schema` lives in, for resolving `#/...` refs. */
  readonly doc: Schema;
}

function decode(value: unknown, at: Located, unwrap: boolean, options: WeakDecodeOptions, pointer: string): unknown {
  const { schema, doc } = resolve(at, options);
  // Schemas that only combine others (`allOf` plus `properties`) describe blocks.
  const type = schema.type ?? (schema.properties !== undefined || schema.allOf !== undefined ? "object" : undefined);
  if (typeof type !== "string" || value === null || value === undefined) return value;
  let current = value;
  if (Array.isArray(current) && type !== "array" && unwrap && current.length === 1) current = current[0];
  switch (type) {
    case "string":
      if (typeof current === "boolean") return current ? "1" : "0";
      if (typeof current === "number") return Number.isInteger(current) ? BigInt(current).toString() : String(current);
      return current;
    case "boolean":
      if (typeof current === "number") return current !== 0;
      if (current === "") return false;
      if (typeof current === "string" && TRUE_TEXTS.has(current)) return true;
      if (typeof current === "string" && FALSE_TEXTS.has(current)) return false;
      return current;
    case "integer":
      if (typeof current === "boolean") return current ? 1 : 0;
      if (typeof current === "number") return wholeNumber(current, pointer, options.numbers);
      if (typeof current === "string") return parseGoInt(current) ?? current;
      return current;
    case "array": {
      let list = current;
      if (isObject(list) && Object.keys(list).length === 0) return [];
      if (!Array.isArray(list)) list = [list];
      const items = isObject(schema.items) ? { schema: schema.items, doc } : undefined;
      return items === undefined ? list : (list as unknown[]).map((item, index) => decode(item, items, unwrap, options, `${pointer}/${index}`));
    }
    case "object": {
      if (Array.isArray(current) && current.length === 0) return {};
      if (Array.isArray(current) && current.length > 0 && current.every(isObject) && isMap(schema)) {
        current = Object.assign({}, ...current) as Json;
      }
      if (!isObject(current)) return current;
      const out: Json = {};
      for (const [key, item] of Object.entries(current)) {
        const property = RAW_VALUE_KEYS.has(key) ? { schema: RAW_VALUES_MAP, doc } : propertySchema(schema, key, doc, options);
        const hooked = unwrap || (doc.$id === taskSchemaId(options) && HOOKED_TASK_KEYS.has(key));
        out[key] = property === undefined ? item : decode(item, property, hooked, options, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      }
      return out;
    }
    default:
      return current;
  }
}

/** A number for an integer field, truncated as CTS does; the truncation or a meaningless size is told. */
function wholeNumber(written: number, pointer: string, notes: IntegerNotes | undefined): number {
  const kept = Math.trunc(written);
  if (!Number.isSafeInteger(kept)) notes?.outOfRange(pointer, written);
  else if (kept !== written) notes?.truncated(pointer, written, kept);
  return kept;
}

/** The schema of `key`: its own `properties` entry, else one from `allOf`, else `additionalProperties`. */
function propertySchema(schema: Schema, key: string, doc: Schema, options: WeakDecodeOptions): Located | undefined {
  const own = (schema.properties as Json | undefined)?.[key];
  if (isObject(own)) return { schema: own, doc };
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    const resolved = resolve({ schema: part, doc }, options);
    const found = propertySchema(resolved.schema, key, resolved.doc, options);
    if (found !== undefined) return found;
  }
  if (own === undefined && isObject(schema.additionalProperties)) return { schema: schema.additionalProperties, doc };
  return undefined;
}

/** An object schema that names no fields: a map (`additionalProperties` types its values). */
function isMap(schema: Schema): boolean {
  return schema.properties === undefined && schema.allOf === undefined && schema.additionalProperties !== false;
}

function resolve(at: Located, options: WeakDecodeOptions): Located {
  let { schema, doc } = at;
  for (let hops = 0; typeof schema.$ref === "string" && hops < 10; hops++) {
    const [base, pointer = ""] = (schema.$ref as string).split("#");
    if (base !== "") doc = [...options.documents.values()].find((one) => String(one.$id).endsWith(`/${base}`)) ?? doc;
    let target: unknown = doc;
    for (const part of pointer.split("/").filter((one) => one !== "")) target = (target as Json | undefined)?.[part];
    if (!isObject(target)) break;
    schema = target;
  }
  return { schema, doc };
}

function taskSchemaId(options: WeakDecodeOptions): string | undefined {
  return [...options.documents.keys()].find((id) => id.endsWith("/task.schema.json"));
}

/** Go's strconv.ParseInt(text, 0, 64): sign, then decimal, 0x, 0o, 0b or leading-0 octal, `_` between digits. */
function parseGoInt(text: string): number | undefined {
  const source = text === "" ? "0" : text;
  const match = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(source);
  if (match === null) return undefined;
  let digits = match[2]!;
  if (/__|_$/.test(digits)) return undefined;
  digits = digits.replace(/_/g, "");
  if (/^0[0-7]+$/.test(digits)) digits = `0o${digits.slice(1)}`;
  const value = Number(digits);
  return Number.isFinite(value) ? (match[1] === "-" ? -value : value) : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
