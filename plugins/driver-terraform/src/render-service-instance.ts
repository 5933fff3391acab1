/**
 * @module One `services` entry of terraform.tfvars, written straight from a ServiceInstance: the
 * same bytes the generic HCL encoder gives for the instance's protocol-v0 object, without building
 * that object and without measuring its keys each time.
 *
 * Why: a task over 10 000 instances renders 10 000 of these per run; the generic encoder spent most
 * of its time on per-instance objects, per-key lookups and a string array per value. Here the
 * attribute layout (names, `=` alignment) depends only on which of the four maps are empty, so
 * the 16 possible layouts are computed once. Anything outside the expected shape (a third-party
 * source handing a number where a string belongs, a nested map value) takes the generic path, so
 * the output is always exactly the generic encoder's.
 */
import type { ServiceInstance } from "../../../core/plugin-api/mod.ts";
import { encodeHclValue, hclColumns, hclObjectKey, hclNumber, quoteHclString } from "./hcl-value.ts";

/** The instance's attributes in protocol-v0 order (the insertion order is what gets written). */
export function serviceObject(instance: ServiceInstance): Record<string, unknown> {
  return {
    id: instance.id,
    name: instance.name,
    kind: instance.kind,
    address: instance.address,
    port: instance.port,
    meta: instance.meta,
    tags: instance.tags,
    namespace: instance.namespace,
    status: instance.status,
    node: instance.node,
    node_id: instance.node_id,
    node_address: instance.node_address,
    node_datacenter: instance.node_datacenter,
    node_tagged_addresses: instance.node_tagged_addresses,
    node_meta: instance.node_meta,
    cts_user_defined_meta: instance.cts_user_defined_meta,
  };
}

const ATTRIBUTES = Object.keys(serviceObject({} as ServiceInstance));
const MAPS = ["meta", "node_tagged_addresses", "node_meta", "cts_user_defined_meta"] as const;
/** Attribute indentation inside an entry (entries start at 2, as in CTS's template). */
const INDENT = "    ";
const MAP_INDENT = "      ";

/**
 * Per combination of empty maps (bit i set: MAPS[i] is non-empty, so written over several lines),
 * the text before each attribute's value: line break, indentation, name, alignment padding, ` = `.
 */
const layouts = new Map<number, readonly string[]>();

function layout(multiLine: number): readonly string[] {
  let prefixes = layouts.get(multiLine);
  if (prefixes) return prefixes;
  const isMulti = (name: string) => {
    const at = (MAPS as readonly string[]).indexOf(name);
    return at >= 0 && (multiLine & (1 << at)) !== 0;
  };
  const out: string[] = [];
  // `=` is aligned over each run of single-line values; a multi-line value ends the run (hclwrite).
  let i = 0;
  while (i < ATTRIBUTES.length) {
    if (isMulti(ATTRIBUTES[i]!)) {
      out.push(`\n${INDENT}${ATTRIBUTES[i]} = `);
      i++;
      continue;
    }
    let end = i;
    let width = 0;
    while (end < ATTRIBUTES.length && !isMulti(ATTRIBUTES[end]!)) width = Math.max(width, ATTRIBUTES[end++]!.length);
    for (; i < end; i++) out.push(`\n${INDENT}${ATTRIBUTES[i]}${" ".repeat(width - ATTRIBUTES[i]!.length)} = `);
  }
  // The entry's opening brace goes with the first attribute: fewer pieces to join.
  out[0] = `{${out[0]}`;
  layouts.set(multiLine, prefixes = out);
  return prefixes;
}

/** Map keys repeat across instances (`version`, `lan`, `wan`): encode each once with its width. */
const mapKeys = new Map<string, { readonly text: string; readonly columns: number }>();

function mapKey(key: string): { readonly text: string; readonly columns: number } {
  let encoded = mapKeys.get(key);
  if (encoded === undefined) {
    const text = hclObjectKey(key);
    encoded = { text, columns: hclColumns(text) };
    if (mapKeys.size > 4096) mapKeys.clear();
    mapKeys.set(key, encoded);
  }
  return encoded;
}

/** `\n`, indentation, key, padding to `width` columns and ` = `: the start of one map line. */
const mapLinePrefixes = new Map<string, string>();

function mapLinePrefix(key: string, width: number): string {
  const cacheKey = `${width}\n${key}`;
  let prefix = mapLinePrefixes.get(cacheKey);
  if (prefix === undefined) {
    const encoded = mapKey(key);
    prefix = `\n${MAP_INDENT}${encoded.text}${pad(width - encoded.columns)} = `;
    if (mapLinePrefixes.size > 4096) mapLinePrefixes.clear();
    mapLinePrefixes.set(cacheKey, prefix);
  }
  return prefix;
}

/** A non-empty string map at attribute level, exactly as the generic encoder writes it. */
function writeStringMap(out: string[], map: Readonly<Record<string, string>>, keys: readonly string[]): void {
  let width = 0;
  for (const key of keys) {
    const columns = mapKey(key).columns;
    if (columns > width) width = columns;
  }
  out.push("{");
  for (const key of keys) out.push(mapLinePrefix(key, width), quoteHclString(map[key]!));
  out.push(`\n${INDENT}}`);
}

const pads: string[] = [];
function pad(n: number): string {
  return (pads[n] ??= " ".repeat(n));
}

/** The map's keys when it is a plain map of strings (what the fast path writes), else undefined. */
function stringMapKeys(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  for (const key of keys) if (typeof (value as Record<string, unknown>)[key] !== "string") return undefined;
  return keys;
}

const STRING_ATTRIBUTES = [
  "id", "name", "kind", "address", "namespace", "status", "node", "node_id", "node_address", "node_datacenter",
] as const;

/** The keys of the four maps when the instance has the expected shape, else undefined (generic path). */
function expectedShape(instance: ServiceInstance): string[][] | undefined {
  for (const name of STRING_ATTRIBUTES) if (typeof instance[name] !== "string") return undefined;
  if (typeof instance.port !== "number" || !Array.isArray(instance.tags)) return undefined;
  for (const tag of instance.tags) if (typeof tag !== "string") return undefined;
  const keys: string[][] = [];
  for (const name of MAPS) {
    const mapKeys = stringMapKeys(instance[name]);
    if (mapKeys === undefined) return undefined;
    keys.push(mapKeys);
  }
  return keys;
}

/**
 * Rendered text of deeply frozen instances. The services source freezes its instances and keeps
 * the object of every unchanged one across answers, so a run after one change among 10 000
 * instances renders one entry and reuses 9 999 (the text lives as long as the instance does).
 */
const renderedText = new WeakMap<ServiceInstance, string>();

function isDeeplyFrozen(instance: ServiceInstance): boolean {
  return Object.isFrozen(instance) && Object.isFrozen(instance.tags) && Object.isFrozen(instance.meta) &&
    Object.isFrozen(instance.node_tagged_addresses) && Object.isFrozen(instance.node_meta) &&
    Object.isFrozen(instance.cts_user_defined_meta);
}

/**
 * Appends the value of one `services` entry (from `{` to `}`) to `out`: the same text as
 * `encodeHclValue(serviceObject(instance), 2)`. Pieces go into the caller's array, joined once
 * for the whole file (concatenating per instance was slower: 10 000 ropes to flatten).
 */
export function writeServiceInstance(out: string[], instance: ServiceInstance): void {
  if (typeof instance !== "object" || instance === null || !isDeeplyFrozen(instance)) {
    writeFresh(out, instance);
    return;
  }
  let text = renderedText.get(instance);
  if (text === undefined) {
    const parts: string[] = [];
    writeFresh(parts, instance);
    renderedText.set(instance, text = parts.join(""));
  }
  out.push(text);
}

function writeFresh(out: string[], instance: ServiceInstance): void {
  const mapKeyLists = expectedShape(instance);
  if (mapKeyLists === undefined) {
    out.push(encodeHclValue(serviceObject(instance), 2));
    return;
  }
  let multiLine = 0;
  for (let i = 0; i < mapKeyLists.length; i++) if (mapKeyLists[i]!.length > 0) multiLine |= 1 << i;
  const p = layout(multiLine);
  out.push(p[0]!, quoteHclString(instance.id), p[1]!, quoteHclString(instance.name), p[2]!, quoteHclString(instance.kind),
    p[3]!, quoteHclString(instance.address), p[4]!, hclNumber(instance.port), p[5]!);
  writeMap(out, instance, mapKeyLists, 0);
  out.push(p[6]!, "[");
  for (let i = 0; i < instance.tags.length; i++) {
    if (i > 0) out.push(", ");
    out.push(quoteHclString(instance.tags[i]!));
  }
  out.push("]", p[7]!, quoteHclString(instance.namespace), p[8]!, quoteHclString(instance.status),
    p[9]!, quoteHclString(instance.node), p[10]!, quoteHclString(instance.node_id),
    p[11]!, quoteHclString(instance.node_address), p[12]!, quoteHclString(instance.node_datacenter), p[13]!);
  writeMap(out, instance, mapKeyLists, 1);
  out.push(p[14]!);
  writeMap(out, instance, mapKeyLists, 2);
  out.push(p[15]!);
  writeMap(out, instance, mapKeyLists, 3);
  out.push("\n  }");
}

function writeMap(out: string[], instance: ServiceInstance, keyLists: readonly string[][], i: number): void {
  if (keyLists[i]!.length === 0) out.push("{}");
  else writeStringMap(out, instance[MAPS[i]!], keyLists[i]!);
}

/** One entry's value as a string (see writeServiceInstance). */
export function renderServiceInstance(instance: ServiceInstance): string {
  const out: string[] = [];
  writeServiceInstance(out, instance);
  return out.join("");
}
